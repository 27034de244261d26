// The account lock billing reads the provider under: runs for one key never overlap, in this
// process or (on PostgreSQL) between two servers' locks on the same database; other keys run
// alongside.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-database.js';
import { type AccountLock, createAccountLock } from './account-lock.js';
import type { DatabaseHandle } from './client.js';

let database: DatabaseHandle;
let locks: AccountLock[];
beforeAll(async () => {
  database = await openTestDatabase();
  // Two servers' locks over one database (on PGlite one process owns the data, so one queue serves).
  locks = [createAccountLock(database), createAccountLock(database)];
});
afterAll(async () => {
  for (const lock of locks) await lock.close();
  await database.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `n` overlapping pieces of work under `key`, alternating the locks; answers the trace. */
async function overlapping(key: (i: number) => string, n: number, through: AccountLock[]): Promise<string[]> {
  const trace: string[] = [];
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      (through[i % through.length] as AccountLock).run(key(i), async () => {
        trace.push(`start ${i}`);
        await pause(20);
        trace.push(`end ${i}`);
      }),
    ),
  );
  return trace;
}

describe('the account lock', () => {
  it('never lets two runs for one account overlap', async () => {
    const single = database.kind === 'pglite' ? [locks[0] as AccountLock] : locks;
    const trace = await overlapping(() => 'billing:one-account', 6, single);
    for (let at = 0; at < trace.length; at += 2) {
      expect(trace[at]?.replace('start', 'end')).toBe(trace[at + 1]);
    }
  });

  it('lets runs for different accounts go on together', async () => {
    // Each run waits inside its lock until all four are inside, not a fixed time: runs that went
    // one at a time would end by the deadline instead, each before the next began.
    const n = 4;
    const trace: string[] = [];
    let inside = 0;
    let allInside: () => void = () => {};
    const everyoneIn = new Promise<void>((resolve) => {
      allInside = resolve;
    });
    const lock = locks[0] as AccountLock;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        lock.run(`billing:account-${i}`, async () => {
          trace.push(`start ${i}`);
          if (++inside === n) allInside();
          await Promise.race([everyoneIn, pause(5_000)]);
          trace.push(`end ${i}`);
        }),
      ),
    );
    expect(trace.slice(0, n).every((line) => line.startsWith('start'))).toBe(true);
  });

  it('lets the next run go on after one fails', async () => {
    const lock = locks[0] as AccountLock;
    await expect(lock.run('billing:failing', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('billing:failing', async () => 'next')).resolves.toBe('next');
  });
});
