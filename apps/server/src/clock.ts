// Time comes through a clock so tests can move it (lockout expiry, inactivity).
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
