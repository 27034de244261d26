// Who had a trial, without keeping who they are: the trial belongs to a person, so it is tied to
// their address (normalized: case, and a "+tag" in the local part, do not make a new address) and
// to their card's fingerprint, kept as hashes after the account is deleted (decision 20.1).
import { createHash } from 'node:crypto';

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

export function normalizedEmail(email: string): string {
  const [local = '', domain = ''] = email.trim().toLowerCase().split('@');
  return `${local.split('+')[0]}@${domain}`;
}

/** The keys a trial claims: the address's, and the card's when one was saved. */
export function trialKeys(email: string, cardFingerprint: string | null): string[] {
  return [hash(`email:${normalizedEmail(email)}`), ...(cardFingerprint ? [hash(`card:${cardFingerprint}`)] : [])];
}
