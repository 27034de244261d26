// Secrets at rest (two-factor secrets): AES-256-GCM with a key from configuration, or, for the
// embedded default, a key generated into the data folder on first start. A stolen database
// alone does not give away anyone's second factor.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** Throws when the value was not sealed with this key or was altered. */
  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** The configured key (base64 or hex of 32 bytes), else `<dataDir>/secret.key`, created once. */
export function loadSecretKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return parseKey(configured);
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return parseKey(readFileSync(file, 'utf8').trim());
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // Readable by the service's user only; `wx` never overwrites a key another process just wrote.
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    return parseKey(readFileSync(file, 'utf8').trim());
  }
}

export function parseKey(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('OWNVOICE_SECRET_KEY must be 32 bytes, as 64 hex digits or base64');
  return key;
}
