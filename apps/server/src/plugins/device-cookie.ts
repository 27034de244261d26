// The browser's device cookie: a random name a browser keeps for a year, so that wrong passwords
// from elsewhere never lock out a browser its owner signed in from before (services/login-guard.ts).
// It is no credential: it proves nothing until the account has signed in with it, and only its
// SHA-256 is stored. httpOnly and SameSite=Strict, so pages can neither read nor send it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newSessionToken } from '../services/tokens.js';

export const DEVICE_COOKIE = 'ov_device';
const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
/** What newSessionToken makes: 256 bits, base64url. Anything else is ignored. */
const DEVICE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The browser's device cookie, when it sent a well-formed one. */
export function deviceOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[DEVICE_COOKIE];
  return value !== undefined && DEVICE_PATTERN.test(value) ? value : undefined;
}

/** The browser's device cookie, given to it first when it has none (a sign-in or sign-up). */
export function ensureDevice(request: FastifyRequest, reply: FastifyReply): string {
  const known = deviceOf(request);
  if (known) return known;
  const device = newSessionToken();
  reply.setCookie(DEVICE_COOKIE, device, {
    path: '/api',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
  return device;
}
