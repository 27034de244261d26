// The embedded inference process is told what it needs and inherits nothing else of the server's
// environment: a process that loads model files has no business with the server's secrets. It
// listens on a Unix socket in an owner-only folder and on no port: another local user cannot
// connect to it at all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HOUSE_MODEL_PATH } from '@ownvoice/engine';
import { describe, expect, it, vi } from 'vitest';
import { createTestContext } from '../test/test-app.js';
import { InferenceEndpoint } from './inference-endpoint.js';
import { childEnvironment, childLogRecord, INFERENCE_SOCKET, InferenceSupervisor } from './supervisor.js';

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

/** The inodes of the TCP sockets listening on this machine (state 0A in /proc/net/tcp and tcp6). */
function listeningTcpInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** What another local user gets trying to connect to `socketPath`: 'connected' or the error's code. */
function connectAsNobody(socketPath: string): string {
  const script =
    "require('net').connect(process.argv[1])" +
    ".on('connect', () => { console.log('connected'); process.exit(0); })" +
    ".on('error', (e) => { console.log(e.code); process.exit(0); });";
  const run = spawnSync(process.execPath, ['-e', script, socketPath], { uid: 65534, gid: 65534, encoding: 'utf8' });
  return run.stdout.trim() || `${run.error ?? run.stderr}`;
}

describe('where the inference process listens', () => {
  it.runIf(process.platform === 'linux')(
    'on a Unix socket in an owner-only folder, on no TCP port; another local user cannot connect',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-sock-'));
      const socketDir = path.join(dir, 'run');
      const supervisor = new InferenceSupervisor({
        env: { OWNVOICE_BASE_MODEL: HOUSE_MODEL_PATH, OWNVOICE_INFERENCE_KEY: 'socket-test-key-0123456789' },
        socketDir,
        log: { info: () => {}, warn: () => {} },
      });
      try {
        const url = await supervisor.url();
        const socketPath = path.join(socketDir, INFERENCE_SOCKET);
        expect(url).toBe(`unix:${socketPath}`);
        expect(statSync(socketDir).mode & 0o777).toBe(0o700);
        expect(statSync(socketPath).mode & 0o777).toBe(0o600);

        const listening = listeningTcpInodes();
        const sockets = readdirSync(`/proc/${supervisor.pid}/fd`)
          .map((fd) => {
            try {
              return readlinkSync(`/proc/${supervisor.pid}/fd/${fd}`);
            } catch {
              return '';
            }
          })
          .map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1])
          .filter((inode): inode is string => inode !== undefined);
        expect(sockets.length).toBeGreaterThan(0);
        expect(sockets.filter((inode) => listening.has(inode))).toEqual([]);

        // The API server's client reaches it through the socket.
        const endpoint = new InferenceEndpoint({ id: 'socket', url, apiKey: 'socket-test-key-0123456789' });
        expect((await endpoint.models()).base).toBe('ownvoice-tiny');
        expect(await endpoint.healthy()).toBe(true);
        await endpoint.close();

        // Another local user (where this test may switch to one) is stopped by the folder.
        if (process.getuid?.() === 0) expect(connectAsNobody(socketPath)).toBe('EACCES');
        await supervisor.stop();
        expect(existsSync(socketPath)).toBe(false);
      } finally {
        await supervisor.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

describe('the inference process’s log in the server’s', () => {
  it('takes a record of its JSON log apart into level, message and fields; plain text stays text at info', () => {
    const line = JSON.stringify({
      level: 30,
      time: 1,
      pid: 7,
      hostname: 'h',
      reqId: 'req-1',
      req: { method: 'GET', url: '/v1/models' },
      msg: 'incoming request',
    });
    expect(childLogRecord(line)).toEqual({
      level: 'info',
      msg: 'incoming request',
      fields: { pid: 7, reqId: 'req-1', req: { method: 'GET', url: '/v1/models' } },
    });
    expect(childLogRecord('{"level":50,"msg":"request failed"}').level).toBe('error');
    expect(childLogRecord('{"level":20,"msg":"x"}').level).toBe('debug');
    for (const text of ['warning: running on tiny', '[30]', '{"msg":"no level"}', '{"level":30']) {
      expect(childLogRecord(text)).toEqual({ level: 'info', msg: text, fields: {} });
    }
  });

  it.runIf(process.platform === 'linux')(
    'holds no line at info for its health checks, and its records as objects rather than quoted JSON',
    async () => {
      const lines: string[] = [];
      const ctx = await createTestContext({}, { logger: { level: 'info', stream: { write: (l) => lines.push(l) } } });
      try {
        const { inference, baseModel } = ctx.app.platform;
        await baseModel.start({ spec: 'tiny', dataDir: ctx.config.dataDir, log: () => {} });
        await inference.ready();
        const [endpoint] = inference.endpoints();
        if (!endpoint) throw new Error('no embedded endpoint');
        const from = lines.length;
        const checks = 10;
        for (let i = 0; i < checks; i++) expect(await endpoint.healthy()).toBe(true);
        // A request the process does log, after the checks: its record comes down the same pipe behind theirs.
        await endpoint.models();
        const records = () => lines.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
        const isModels = (r: Record<string, unknown>) =>
          (r.inference as { req?: { url?: string } } | undefined)?.req?.url === '/v1/models';
        await vi.waitFor(() => expect(records().some(isModels)).toBe(true), { timeout: 10_000 });
        const during = records().slice(0, records().findIndex(isModels));
        expect(during.filter((r) => r.level === 30)).toEqual([]);

        const forwarded = records().find(isModels);
        expect(forwarded).toMatchObject({
          level: 30,
          msg: 'incoming request',
          inference: { pid: inference.embeddedPid, req: { method: 'GET', url: '/v1/models' } },
        });
        expect(String(forwarded?.msg)).not.toMatch(/[{}]/);
      } finally {
        await ctx.close();
      }
    },
    120_000,
  );
});
