// The servers the load bench (bench/load.ts) measures, in one child process of their own, so the
// load generator in the parent does not share their event loop: a bare Fastify app answering
// {status:'ok'} and OwnVoice built by the tests' createTestContext over the database the test
// helpers pick (OWNVOICE_TEST_DB, TEST_DATABASE_URL), both on loopback ports. Both are one
// Node.js process with one event loop, as OwnVoice runs in production.
// Prints one `ready {json}` line with the ports and the accounts to use, and a `memory {json}`
// line, after a full garbage collection, at each SIGUSR2 (the soak asks once a second: memory
// that is only garbage not yet collected is no leak); SIGTERM closes both (and drops the test
// database). Run with --expose-gc.
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { systemClock } from '../src/clock.js';
import { newId } from '../src/ids.js';
import { createTestContext, type TestContext } from '../src/test/test-app.js';
import { testDatabaseKind } from '../src/test/test-database.js';

/** What the parent needs to send requests as the prepared users. */
export interface LoadServerInfo {
  database: 'pglite' | 'postgres';
  barePort: number;
  port: number;
  /** Whether the built web app is served (GET / answers index.html). */
  web: boolean;
  /** The reader of the read routes: signed in, with a few Voices. */
  reader: { token: string; voices: number };
  /** Users of the soak: each signs in with these and renames its own Voice. */
  soakUsers: { email: string; password: string; voiceId: string }[];
}

export interface MemorySample {
  /** Date.now() when taken. */
  t: number;
  rss: number;
  heapUsed: number;
  /** Memory outside the JavaScript heap: buffers, and PGlite's WebAssembly memory. */
  external: number;
}

const READER_VOICES = 3;
const SOAK_USERS = 5;

const listen = async (app: FastifyInstance) => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
};

/** A registered user with `voices` ready Voices stored directly (no training: the routes only read and rename them). */
async function userWithVoices(ctx: TestContext, voices: number) {
  const client = ctx.client();
  const { account, res } = await client.register();
  const userId: string = res.json().user.id;
  const ids: string[] = [];
  for (let i = 0; i < voices; i++) {
    const row = await ctx.app.platform.services.repositories.voices.insert({
      id: newId(),
      userId,
      name: `Bench ${i + 1}`,
      status: 'ready',
      progress: 100,
    });
    ids.push(row.id);
  }
  return { account, token: client.token as string, voiceIds: ids };
}

async function main() {
  const bare = Fastify({ logger: false });
  bare.get('/', async () => ({ status: 'ok' }));
  const webDir = process.env.OWNVOICE_WEB_DIR || undefined;
  // The real clock: sessions age and their last use is written as in production (once a minute).
  const ctx = await createTestContext(
    // Sign-in budgets out of the way: the soak signs in far more often than a person would.
    { webDir, authRateLimit: { perIp: 1e9, perAccount: 1e9 } },
    // Responses written as in production, without zod's second encoding that tests compare, and
    // no logger (the tests' one prints their 500s), as the bare app has none.
    { clock: systemClock, checkResponses: false, logger: false },
  );
  const reader = await userWithVoices(ctx, READER_VOICES);
  const soakUsers = [];
  for (let i = 0; i < SOAK_USERS; i++) {
    const { account, voiceIds } = await userWithVoices(ctx, 1);
    soakUsers.push({ email: account.email, password: account.password, voiceId: voiceIds[0] as string });
  }
  const info: LoadServerInfo = {
    database: testDatabaseKind(),
    barePort: await listen(bare),
    port: await listen(ctx.app),
    web: (await ctx.app.inject({ method: 'GET', url: '/' })).statusCode === 200,
    reader: { token: reader.token, voices: READER_VOICES },
    soakUsers,
  };
  console.log(`ready ${JSON.stringify(info)}`);

  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    const { rss, heapUsed, external } = process.memoryUsage();
    console.log(`memory ${JSON.stringify({ t: Date.now(), rss, heapUsed, external } satisfies MemorySample)}`);
  });
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    Promise.all([bare.close(), ctx.close()]).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', close);
  // A bench that died without stopping us leaves us to another parent: close rather than linger.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && close(), 2000).unref();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
