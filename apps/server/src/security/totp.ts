// Time-based one-time passwords (RFC 6238) through otpauth: SHA-1, 6 digits, 30-second steps,
// codes accepted one step either side of now, as authenticator apps expect.
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
const WINDOW = 1;
const ISSUER = 'OwnVoice';

const totpFor = (secret: string, label = 'account') =>
  new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

/** A new secret: 160 random bits, base32 as apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app reads from the QR code. */
export const totpUri = (secret: string, account: string): string => totpFor(secret, account).toString();

/** The time step `token` belongs to, or null when it is not a current code. */
export function matchTotp(secret: string, token: string, now: Date): number | null {
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpFor(secret).validate({ token, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
}
