// Inactivity auto-logout: the session ends once no activity was seen for the role's
// limit. Activity only records a timestamp (mousemove fires constantly); the single timer
// checks that timestamp when it fires and re-arms itself for whatever time is left.
import { INACTIVITY_LIMIT_MS, type Role } from '@ownvoice/shared';

/** The DOM events that count as activity: load, mouse move/down, click, scroll, key press. */
export const ACTIVITY_EVENTS = ['load', 'mousemove', 'mousedown', 'click', 'scroll', 'keydown'] as const;

export const inactivityLimitFor = (role: Role): number => INACTIVITY_LIMIT_MS[role];

export interface InactivityTimerOptions {
  limitMs: number;
  onExpire: () => void;
  now?: () => number;
  /**
   * The latest activity seen in other tabs, if known. All tabs share one session token, so
   * an idle tab must not end the session while the user is busy in another.
   */
  lastActivityElsewhere?: () => number | null;
}

export interface InactivityTimer {
  /** Records activity now, postponing expiry to limitMs from now. */
  touch(): void;
  /** Stops the timer for good; onExpire will not be called afterwards. */
  stop(): void;
}

/** Starts counting at once (the page load counts as activity). */
export function startInactivityTimer({
  limitMs,
  onExpire,
  now = Date.now,
  lastActivityElsewhere = () => null,
}: InactivityTimerOptions): InactivityTimer {
  let lastActivity = now();
  let handle: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const arm = (delayMs: number) => {
    handle = setTimeout(check, delayMs);
  };

  function check() {
    handle = undefined;
    if (stopped) return;
    const idleMs = now() - Math.max(lastActivity, lastActivityElsewhere() ?? 0);
    if (idleMs >= limitMs) {
      stopped = true;
      onExpire();
    } else {
      arm(limitMs - idleMs);
    }
  }

  arm(limitMs);

  return {
    touch() {
      if (!stopped) lastActivity = now();
    },
    stop() {
      stopped = true;
      if (handle !== undefined) clearTimeout(handle);
      handle = undefined;
    },
  };
}
