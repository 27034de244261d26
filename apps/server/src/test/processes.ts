// Child processes of the server's own entry points (run from source through tsx), for tests of
// what happens between processes: folder locks, the admin command.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Child {
  process: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves when the output contains `text`; rejects when the process exits first or after `timeoutMs`. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
}

/** `nodeArgs` go to node itself, before the script (flags NODE_OPTIONS refuses, such as --cpu-prof). */
export function startTs(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin?: string,
  nodeArgs: string[] = [],
): Child {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  if (stdin === undefined) child.stdin?.end();
  else child.stdin?.end(stdin);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    process: child,
    output: () => out,
    exited,
    waitFor: (text, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const found = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
        if (found()) return resolve();
        const check = () => {
          if (!found()) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${text}:\n${out.slice(-3000)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (found()) return;
          done();
          reject(new Error(`exited (${code}) before ${text}:\n${out.slice(-3000)}`));
        });
      }),
  };
}

/**
 * Children started by one test file, killed (if still running) and awaited after each test:
 * call in the file's top level and push each child into the returned list.
 */
export function childrenOfEachTest(afterEach: (fn: () => Promise<void>) => void): Child[] {
  const children: Child[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
      await child.exited;
    }
  });
  return children;
}
