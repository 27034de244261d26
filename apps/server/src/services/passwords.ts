// Password hashing with argon2id (the default algorithm of @node-rs/argon2), at OWASP's
// recommended cost: 19 MiB of memory, 2 passes, 1 lane.
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against this when the e-mail is unknown makes "no such user" take as long as
// "wrong password", so response times do not reveal which e-mails have accounts.
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-1A');
  await verifyPassword(await dummyHash, password);
}
