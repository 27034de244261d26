// A second OwnVoice for tests that move something between two: the built server started on an
// empty data folder and a free loopback port, as the offline app starts it, stopped by its PID.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { e2eDir } from './support';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

export interface SecondServer {
  url: string;
  /** Its data folder: mail without SMTP lands in `outbox/` there. */
  dataDir: string;
  /** Its process, for waits that should end if it dies. */
  pid: number;
  stop(): Promise<void>;
}

export interface SecondServerOptions {
  /** OWNVOICE_BASE_MODEL: the house model unless a test needs the real one. */
  baseModel?: string;
  /** More environment for the server (a preset, threads). */
  env?: Record<string, string>;
  /** How long the server may take to answer its health check (a real model loads for longer). */
  startSeconds?: number;
}

export async function startSecondServer(options: SecondServerOptions = {}): Promise<SecondServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-second-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: path.resolve(e2eDir, '..'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      OWNVOICE_DATA_DIR: dataDir,
      OWNVOICE_BASE_MODEL: options.baseModel ?? 'tiny',
      OWNVOICE_BILLING: 'none',
      LOG_LEVEL: 'warn',
      // The threads this run was given (npm test runs the real model's spec on one core).
      ...(process.env.OWNVOICE_THREADS ? { OWNVOICE_THREADS: process.env.OWNVOICE_THREADS } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let tries = 0; tries < (options.startSeconds ?? 60) * 4; tries++) {
    if (child.exitCode !== null) break;
    const healthy = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return { url, dataDir, pid: child.pid as number, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`the second server did not answer at ${url}`);
}
