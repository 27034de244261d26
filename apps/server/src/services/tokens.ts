// Session tokens: 256 random bits handed to the client once; only their SHA-256 is stored.
import { createHash, randomBytes } from 'node:crypto';

export const newSessionToken = (): string => randomBytes(32).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
