// The embedded inference process is told what it needs and inherits nothing else of the server's
// environment: a process that loads model files has no business with the server's secrets.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../test/test-app.js';
import { childEnvironment } from './supervisor.js';

const SECRETS = {
  STRIPE_SECRET_KEY: 'sk_test_canary',
  STRIPE_WEBHOOK_SECRET: 'whsec_canary',
  OWNVOICE_SECRET_KEY: 'server-secret-canary',
  DATABASE_URL: 'postgres://u:canary@db/ownvoice',
  SMTP_URL: 'smtp://u:canary@mail',
};

describe('the inference process’s environment', () => {
  it('keeps what programs need and what it is told, and none of the server’s secrets', () => {
    const env = childEnvironment(
      { ...SECRETS, PATH: '/usr/bin', HOME: '/home/ov', LANG: 'C.UTF-8', NODE_LLAMA_CPP_GPU: 'false' },
      { OWNVOICE_INFERENCE_KEY: 'its-own-key', OWNVOICE_BASE_MODEL: '/models/base.gguf' },
    );
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/ov',
      LANG: 'C.UTF-8',
      NODE_LLAMA_CPP_GPU: 'false',
      OWNVOICE_INFERENCE_KEY: 'its-own-key',
      OWNVOICE_BASE_MODEL: '/models/base.gguf',
    });
  });

  it.runIf(process.platform === 'linux')(
    'reaches the real process the server starts: its environment holds no secret of the server',
    async () => {
      const saved = { ...process.env };
      Object.assign(process.env, SECRETS);
      const ctx = await createTestContext();
      try {
        const { inference, baseModel } = ctx.app.platform;
        await baseModel.start({ spec: 'tiny', dataDir: ctx.config.dataDir, log: () => {} });
        await inference.ready();
        const environ = readFileSync(`/proc/${inference.embeddedPid}/environ`, 'utf8').split('\0');
        expect(environ.some((entry) => entry.startsWith('OWNVOICE_INFERENCE_KEY='))).toBe(true);
        for (const [name, value] of Object.entries(SECRETS)) {
          expect(
            environ.some((entry) => entry.startsWith(`${name}=`) || entry.includes(value)),
            name,
          ).toBe(false);
        }
      } finally {
        await ctx.close();
        process.env = saved;
      }
    },
    120_000,
  );
});
