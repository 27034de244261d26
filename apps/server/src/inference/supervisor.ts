// The embedded inference process: with no OWNVOICE_INFERENCE_URLS, the API server runs
// `apps/inference` itself as a child process, so `npm start` stays one command while llama.cpp
// lives in a process of its own: a native crash there (some malformed model files make it abort)
// costs a restart of that process, not the API, its sessions and its streams. It listens on a
// Unix socket in a folder only this OS user may enter (security/private-socket.ts), never on a
// port: no other local user can reach the model server, load files into it or write with a Voice.
//
// The child prints one line on standard output once it listens ("inference listening on
// unix:PATH"); everything else it writes goes to our log, its JSON records (pino's) at their own
// level with their fields as an object, not quoted as text in a record of ours. When it exits
// unexpectedly it is started again, after a pause that doubles with each quick failure (up to
// MAX_BACKOFF_MS) and resets once it has stayed up a minute. Listeners hear 'down' when it goes
// and 'up' (with its new URL) when it is back.
import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { INFERENCE_LISTENING_PREFIX } from '@ownvoice/shared';
import { type PrivateSocketPlace, privateSocketPlace } from '../security/private-socket.js';

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;
const STABLE_MS = 60_000;

export interface SupervisorLog {
  info(msg: string): void;
  warn(msg: string): void;
  /** A record of the child's log, for a structured log; a log without it gets the record as text. */
  fromChild?(record: ChildLogRecord): void;
}

/** pino's level names. */
export type ChildLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** One line the child wrote to standard error: a record of its JSON log, or plain text at info. */
export interface ChildLogRecord {
  level: ChildLogLevel;
  msg: string;
  /** The record's other fields (request, response, error, the child's pid); none for plain text. */
  fields: Record<string, unknown>;
}

/** pino's numeric levels, highest first (pino's levels.values). */
const PINO_LEVELS: readonly (readonly [number, ChildLogLevel])[] = [
  [60, 'fatal'],
  [50, 'error'],
  [40, 'warn'],
  [30, 'info'],
  [20, 'debug'],
  [10, 'trace'],
];

/** Takes a line of the child's standard error apart: a pino record (JSON with a numeric level), else text. */
export function childLogRecord(line: string): ChildLogRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { level: 'info', msg: line, fields: {} };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { level: 'info', msg: line, fields: {} };
  // Its time and host are ours to within the pipe's delay, and the same machine.
  const { level, msg, time: _time, hostname: _hostname, ...fields } = parsed as Record<string, unknown>;
  if (typeof level !== 'number') return { level: 'info', msg: line, fields: {} };
  return {
    level: PINO_LEVELS.find(([value]) => level >= value)?.[1] ?? 'trace',
    msg: typeof msg === 'string' ? msg : '',
    fields,
  };
}

/** A child's record in a log of plain messages: as text, below info left out as such a log's level would. */
function logAsText(log: SupervisorLog, { level, msg, fields }: ChildLogRecord): void {
  if (level === 'trace' || level === 'debug') return;
  const text = `inference: ${msg}${Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : ''}`;
  if (level === 'info') log.info(text);
  else log.warn(text);
}

export interface SupervisorOptions {
  /**
   * What the inference server is told: base model, data folder, threads, key (where it listens is
   * set here); it inherits nothing else of this process's environment but childEnvironment's list.
   */
  env: Record<string, string>;
  /** The folder for its socket, made owner-only; a private temporary folder when absent or too long a path. */
  socketDir?: string | undefined;
  log: SupervisorLog;
  /** The program to run; by default the inference server beside this one (inferenceEntry()). */
  entry?: { file: string; execArgv: string[] };
  /** CPUs to keep the process on (taskset's list, "0" or "0-3"), to stand in for a machine of its own. */
  cpus?: string;
}

/**
 * Where the inference server's program is: its bundle when this server runs from its own bundle,
 * its TypeScript source (through tsx) when this runs from source, in development and tests.
 */
export function inferenceEntry(): { file: string; execArgv: string[] } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  if (import.meta.url.endsWith('.ts')) {
    return { file: path.resolve(here, '../../../inference/src/main.ts'), execArgv: ['--import', 'tsx'] };
  }
  // apps/server/dist/main.js -> apps/inference/dist/main.js
  const bundled = path.resolve(here, '../../inference/dist/main.js');
  if (!existsSync(bundled)) throw new Error(`the inference server is not built: ${bundled} is missing`);
  return { file: bundled, execArgv: [] };
}

/**
 * What the child may see of this process's environment: where programs and temporary files are,
 * the locale and time zone, Node's own settings, and the native runtime's (llama.cpp, the GPU
 * drivers). Nothing else: this process's secrets (the server key, Stripe's keys, the database's
 * address) are no business of a process that runs model files.
 */
const INHERITED = new Set([
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'NODE_ENV',
  'LD_LIBRARY_PATH',
]);
const INHERITED_PREFIXES = ['NODE_LLAMA_CPP_', 'GGML_', 'CUDA_', 'HIP_', 'ROCR_', 'VULKAN_', 'VK_'];

/** The child's environment: `own` (what it is told), over what it may inherit of `parent`. */
export function childEnvironment(parent: NodeJS.ProcessEnv, own: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(parent).filter(
    ([name, value]) =>
      value !== undefined && (INHERITED.has(name) || INHERITED_PREFIXES.some((prefix) => name.startsWith(prefix))),
  );
  return { ...Object.fromEntries(inherited), ...own };
}

/** The socket's name in its folder. */
export const INFERENCE_SOCKET = 'inference.sock';

export class InferenceSupervisor extends EventEmitter<{
  up: [url: string];
  /** It exited unexpectedly: how, and the signal that ended it (null for an exit code). */
  down: [reason: string, signal: NodeJS.Signals | null];
}> {
  private child: ChildProcess | undefined;
  private socket: PrivateSocketPlace | undefined;
  private current: Promise<string> | undefined;
  private stopping = false;
  private backoffMs = FIRST_BACKOFF_MS;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SupervisorOptions) {
    super();
  }

  /** The process id while it runs (for tests and the log). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The URL it listens on, starting it (or waiting for its restart) if needed. */
  url(): Promise<string> {
    if (this.stopping) return Promise.reject(new Error('the inference process is stopping'));
    this.current ??= this.launch();
    return this.current;
  }

  private launch(): Promise<string> {
    const { file, execArgv } = this.options.entry ?? inferenceEntry();
    // Made afresh for each start: the folder is private again even if someone changed it meanwhile.
    this.socket = privateSocketPlace(this.options.socketDir, INFERENCE_SOCKET);
    const startedAt = Date.now();
    const argv = [...execArgv, file];
    const { cpus } = this.options;
    // taskset runs the program in its own process (the same pid), kept on those CPUs.
    const child = spawn(cpus ? 'taskset' : process.execPath, cpus ? ['-c', cpus, process.execPath, ...argv] : argv, {
      env: childEnvironment(process.env, {
        ...this.options.env,
        OWNVOICE_INFERENCE_SOCKET: this.socket.socketPath,
        OWNVOICE_INFERENCE_SUPERVISED: '1',
      }),
      // Standard input stays open while this process lives: the child stops when it closes.
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    const recent: string[] = [];
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      const { log } = this.options;
      const record = childLogRecord(line);
      if (log.fromChild) log.fromChild(record);
      else logAsText(log, record);
    });
    return new Promise<string>((resolve, reject) => {
      let listening = false;
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
        if (listening || !line.startsWith(INFERENCE_LISTENING_PREFIX)) return;
        listening = true;
        const url = line.slice(INFERENCE_LISTENING_PREFIX.length).trim();
        this.options.log.info(`inference process ${child.pid} listening on ${url}`);
        resolve(url);
        this.emit('up', url);
      });
      child.on('error', (error) => {
        if (!listening) reject(error);
      });
      child.on('exit', (code, signal) => {
        if (this.child === child) this.child = undefined;
        const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
        if (!listening) {
          this.current = undefined;
          reject(new Error(`the inference process ${how} before it listened: ${recent.slice(-5).join(' | ')}`));
          return;
        }
        if (this.stopping) return;
        this.options.log.warn(`inference process ${child.pid} ${how}; starting it again`);
        this.backoffMs = Date.now() - startedAt > STABLE_MS ? FIRST_BACKOFF_MS : this.backoffMs;
        const wait = this.backoffMs;
        this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
        // Requests in the meantime wait for the restart rather than fail at once.
        let restarted: (url: string) => void = () => {};
        let failed: (error: unknown) => void = () => {};
        this.current = new Promise<string>((res, rej) => {
          restarted = res;
          failed = rej;
        });
        this.current.catch(() => {});
        this.emit('down', how, signal);
        this.restartTimer = setTimeout(() => {
          this.launch().then(restarted, (error: unknown) => {
            this.current = undefined;
            failed(error);
          });
        }, wait);
      });
    });
  }

  /** Stops the process (SIGTERM, then SIGKILL after `graceMs`) and does not start it again. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    this.socket?.remove();
  }
}
