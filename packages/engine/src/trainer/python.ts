// Runs the PyTorch trainer (packages/engine/python) as a child process. The interpreter is
// the one named by OWNVOICE_PYTHON, else of Debian's /usr/bin/python3 and python3 on PATH those
// that can import torch (another python3 may come first on PATH without torch), the first whose
// torch sees a CUDA device, else the first (pickFastest).
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { ENGINE_DIR } from '../package-dir.js';

export const TRAINER_DIR = path.join(ENGINE_DIR, 'python');

export class TrainerUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrainerUnavailableError';
  }
}

export class TrainerError extends Error {
  constructor(
    message: string,
    readonly trace?: string,
  ) {
    super(message);
    this.name = 'TrainerError';
  }
}

const execFileAsync = promisify(execFile);

const INSTALL_HINT =
  'Training needs PyTorch. On Debian or Ubuntu: sudo apt-get install -y python3-torch libopenblas0-pthread; elsewhere: pip install torch numpy. Set OWNVOICE_PYTHON to the interpreter that has it.';

export interface TrainerPython {
  python: string;
  /** torch's version. */
  torch: string;
  /** Whether torch sees a CUDA device: the trainer then trains there, and paraphrases there too. */
  cuda: boolean;
  /**
   * Whether the CPU runs bfloat16 matrix products fast (the trainer's bf16_is_faster: AVX-512
   * BF16 or AMX, by the CPU's flags where Linux lists them): mixed precision "auto" takes them
   * there, and the trainer writes the pairs (train-voice.ts).
   */
  cpuBf16: boolean;
}

/**
 * A mixed-precision setting with 'auto' settled from what findPython measured, where the trainer
 * runs on the CPU, so that it does not measure it again: 2.5 s a command on a CPU that emulates
 * bfloat16. On CUDA 'auto' stays: the trainer asks the device, which costs nothing.
 */
export const settledPrecision = (setting: 'auto' | boolean, python: Pick<TrainerPython, 'cuda' | 'cpuBf16'>) =>
  setting === 'auto' && !python.cuda ? python.cpuBf16 : setting;

/** Prints torch's version, whether it has CUDA, and whether the CPU's bfloat16 products are fast. */
const PROBE =
  'import torch, numpy; from ownvoice_trainer.precision import bf16_is_faster; ' +
  'print(torch.__version__, torch.cuda.is_available(), bf16_is_faster(torch.device("cpu")))';

let cached: Promise<TrainerPython> | undefined;

/**
 * The interpreter that can import torch, with what torch offers; rejects with
 * TrainerUnavailableError. Asynchronous because importing torch takes seconds, which a service
 * starting its first training would otherwise spend with its event loop stopped.
 */
export function findPython(env: NodeJS.ProcessEnv = process.env): Promise<TrainerPython> {
  if (env.OWNVOICE_PYTHON) return probe([env.OWNVOICE_PYTHON]);
  if (!cached) {
    cached = probe(PYTHON_CANDIDATES);
    // A failed probe is tried again next time: PyTorch may have been installed since.
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}

/**
 * Where findPython looks when OWNVOICE_PYTHON is not set. Not a virtualenv of PyPI's torch: a
 * machine's CI uses Debian's unless told otherwise, so a person names that one in OWNVOICE_PYTHON.
 */
export const PYTHON_CANDIDATES: readonly string[] = ['/usr/bin/python3', 'python3'];

/**
 * Of the interpreters that import torch, in the order they were looked for, the first whose torch
 * sees a CUDA device (the trainer then trains and paraphrases there), else the first. Not the
 * newest torch: on a 2-core CPU PyPI's torch 2.15 trained the real model's standard preset at
 * 0.92x the pace of Debian's 1.13 (0.83-0.95 over three interleaved rounds) and paraphrased no
 * faster (0.96x, 0.67-1.13): the engine bench's section 7, README "Run it".
 */
export function pickFastest<T extends Pick<TrainerPython, 'cuda'>>(found: readonly T[]): T | undefined {
  return found.find((p) => p.cuda) ?? found[0];
}

/**
 * Probes the candidates one after another (each imports torch, seconds, and times bfloat16
 * products: two at once would share the cores they time), up to one with CUDA, and picks the
 * fastest.
 */
async function probe(candidates: readonly string[]): Promise<TrainerPython> {
  const probes: (TrainerPython | string)[] = [];
  for (const python of candidates) {
    const found = await probeOne(python);
    probes.push(found);
    if (typeof found !== 'string' && found.cuda) break; // none can beat it
  }
  const best = pickFastest(probes.filter((p): p is TrainerPython => typeof p !== 'string'));
  if (best) return best;
  const tried = probes.filter((p): p is string => typeof p === 'string');
  throw new TrainerUnavailableError(`No Python with PyTorch found (${tried.join('; ')}). ${INSTALL_HINT}`);
}

/** The interpreter with what its torch offers, or why it could not be used. */
async function probeOne(python: string): Promise<TrainerPython | string> {
  try {
    const { stdout } = await execFileAsync(python, ['-c', PROBE], {
      encoding: 'utf8',
      cwd: TRAINER_DIR,
      env: { ...process.env, PYTHONPATH: TRAINER_DIR },
    });
    const [torch = '', cuda, bf16] = stdout.trim().split('\n').pop()?.split(' ') ?? [];
    return { python, torch, cuda: cuda === 'True', cpuBf16: bf16 === 'True' };
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    return `${python}: ${(stderr?.trim().split('\n').pop() || message).slice(0, 200)}`;
  }
}

export type TrainerEvent = { event: string; [key: string]: unknown };

export interface RunOptions {
  onEvent?: (event: TrainerEvent) => void;
  signal?: AbortSignal;
  /** Threads of a trainer started for the command alone (a serving trainer has its own). */
  threads?: number;
  /** Run on this serving trainer rather than on one started for the command alone. */
  trainer?: TrainerProcess;
}

interface Running {
  onEvent?: (event: TrainerEvent) => void;
  resolve: (done: TrainerEvent) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
}

/**
 * One trainer process serving commands one after another (`python -m ownvoice_trainer serve`):
 * each command a JSON line on its standard input, answered with JSON lines ending in "done" or
 * "error". The model it read last stays loaded between commands, and on a GPU so do PyTorch's CUDA
 * context and kernels, so a Voice's paraphrases and its training start once. Aborting a command
 * stops the process (training saves its checkpoint first); close() lets it exit.
 */
export class TrainerProcess {
  private running: Running | undefined;
  private exited: string | undefined;
  private stderr = '';
  private readonly closed: Promise<void>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    python: string,
    private readonly threads: number,
  ) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.trim()) this.line(line);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-8000);
    });
    // A process that died mid-write is reported by 'close', with its stderr.
    child.stdin.on('error', () => {});
    this.closed = new Promise((resolve) => {
      child.on('error', (error) => {
        this.exited = `Could not start ${python}: ${error.message}`;
        this.settle(new TrainerError(this.exited));
        resolve();
      });
      child.on('close', (code, signal) => {
        this.exited ??= `The trainer stopped (${signal ?? `exit code ${code}`}): ${this.stderr.trim().slice(-1000)}`;
        const run = this.running;
        this.settle(new TrainerError(run?.signal?.aborted ? 'Training was cancelled.' : this.exited));
        resolve();
      });
    });
  }

  /**
   * Starts a serving trainer whose commands run on `threads` threads (all cores by default), on
   * `python` (findPython's by default).
   */
  static async open(options: { threads?: number; python?: string } = {}): Promise<TrainerProcess> {
    const python = options.python ?? (await findPython()).python;
    const threads = options.threads ?? Math.max(1, cpus().length);
    const child = spawn(python, ['-m', 'ownvoice_trainer', 'serve'], {
      cwd: TRAINER_DIR,
      env: {
        ...process.env,
        PYTHONPATH: TRAINER_DIR,
        PYTHONUNBUFFERED: '1',
        // Busy-waiting OpenMP threads made a step on 2 cores about 6 times slower.
        OMP_WAIT_POLICY: 'PASSIVE',
        OMP_NUM_THREADS: String(threads),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new TrainerProcess(child, python, threads);
  }

  /** Resolves with the command's "done" event; rejects with TrainerError carrying the trainer's message. */
  run(command: string, request: object, options: Omit<RunOptions, 'trainer' | 'threads'> = {}): Promise<TrainerEvent> {
    if (this.running) return Promise.reject(new Error(`the trainer is still running a command; ${command} must wait`));
    if (this.exited) return Promise.reject(new TrainerError(this.exited));
    if (options.signal?.aborted) return Promise.reject(new TrainerError('Training was cancelled.'));
    return new Promise<TrainerEvent>((resolve, reject) => {
      this.running = { resolve, reject, ...options };
      options.signal?.addEventListener('abort', this.abort, { once: true });
      this.child.stdin.write(`${JSON.stringify({ command, request: { threads: this.threads, ...request } })}\n`);
    });
  }

  /** Ends the trainer's input: it exits once its command, if any, is done. Resolves when it has. */
  close(): Promise<void> {
    this.child.stdin.end();
    return this.closed;
  }

  private readonly abort = () => {
    // Training saves its checkpoint on SIGTERM and returns; with its input ended the process exits.
    this.child.kill('SIGTERM');
    this.child.stdin.end();
  };

  private line(line: string) {
    let event: TrainerEvent;
    try {
      event = JSON.parse(line) as TrainerEvent;
    } catch {
      return; // a stray print is not an event
    }
    const run = this.running;
    if (!run) return;
    run.onEvent?.(event);
    if (event.event === 'done') this.settle(undefined, event);
    else if (event.event === 'error') {
      this.settle(new TrainerError(String(event.message), typeof event.trace === 'string' ? event.trace : undefined));
    }
  }

  private settle(error: Error | undefined, done?: TrainerEvent) {
    const run = this.running;
    if (!run) return;
    this.running = undefined;
    run.signal?.removeEventListener('abort', this.abort);
    if (error) run.reject(error);
    else run.resolve(done as TrainerEvent);
  }
}

/**
 * Runs one trainer command with a JSON request, on `options.trainer` or on a trainer started for
 * it alone; resolves with the final "done" event, rejects with TrainerError carrying the
 * trainer's own message.
 */
export async function runTrainer(command: string, request: object, options: RunOptions = {}): Promise<TrainerEvent> {
  const { trainer, threads, ...run } = options;
  if (trainer) return trainer.run(command, request, run);
  const own = await TrainerProcess.open(threads ? { threads } : {});
  try {
    return await own.run(command, request, run);
  } finally {
    await own.close();
  }
}
