// Runs the PyTorch trainer (packages/engine/python) as a child process. The interpreter is
// the one named by OWNVOICE_PYTHON, else the first of Debian's /usr/bin/python3 and python3
// on PATH that can import torch (another python3 may come first on PATH without torch).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
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
   * BF16 or AMX): mixed precision "auto" takes them there, and the trainer writes the pairs
   * (train-voice.ts).
   */
  cpuBf16: boolean;
}

/** Prints torch's version, whether it has CUDA, and whether the CPU's bfloat16 products are fast. */
const PROBE =
  'import torch, numpy; from ownvoice_trainer.train import bf16_is_faster; ' +
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
    cached = probe(['/usr/bin/python3', 'python3']);
    // A failed probe is tried again next time: PyTorch may have been installed since.
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}

async function probe(candidates: string[]): Promise<TrainerPython> {
  const tried: string[] = [];
  for (const python of candidates) {
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
      tried.push(`${python}: ${(stderr?.trim().split('\n').pop() || message).slice(0, 200)}`);
    }
  }
  throw new TrainerUnavailableError(`No Python with PyTorch found (${tried.join('; ')}). ${INSTALL_HINT}`);
}

export type TrainerEvent = { event: string; [key: string]: unknown };

export interface RunOptions {
  onEvent?: (event: TrainerEvent) => void;
  signal?: AbortSignal;
  threads?: number;
}

/**
 * Runs `python -m ownvoice_trainer <command>` with a JSON request; resolves with the final
 * "done" event, rejects with TrainerError carrying the trainer's own message.
 */
export async function runTrainer(command: string, request: object, options: RunOptions = {}): Promise<TrainerEvent> {
  const { python } = await findPython();
  const dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-trainer-'));
  const requestPath = path.join(dir, 'request.json');
  const threads = options.threads ?? Math.max(1, cpus().length);
  writeFileSync(requestPath, JSON.stringify({ threads, ...request }));
  try {
    return await new Promise<TrainerEvent>((resolve, reject) => {
      const child = spawn(python, ['-m', 'ownvoice_trainer', command, requestPath], {
        cwd: TRAINER_DIR,
        env: {
          ...process.env,
          PYTHONPATH: TRAINER_DIR,
          PYTHONUNBUFFERED: '1',
          // Busy-waiting OpenMP threads made a step on 2 cores about 6 times slower.
          OMP_WAIT_POLICY: 'PASSIVE',
          OMP_NUM_THREADS: String(threads),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let last: TrainerEvent | undefined;
      let stderr = '';
      let buffered = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        let nl = buffered.indexOf('\n');
        while (nl >= 0) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          nl = buffered.indexOf('\n');
          if (!line) continue;
          try {
            last = JSON.parse(line) as TrainerEvent;
          } catch {
            continue; // a stray print is not an event
          }
          options.onEvent?.(last);
        }
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-8000);
      });
      const abort = () => child.kill('SIGTERM');
      options.signal?.addEventListener('abort', abort, { once: true });
      child.on('error', (error) => reject(new TrainerError(`Could not start ${python}: ${error.message}`)));
      child.on('close', (code, signal) => {
        options.signal?.removeEventListener('abort', abort);
        if (last?.event === 'done' && code === 0) return resolve(last);
        if (options.signal?.aborted) return reject(new TrainerError('Training was cancelled.'));
        if (last?.event === 'error') {
          return reject(
            new TrainerError(String(last.message), typeof last.trace === 'string' ? last.trace : undefined),
          );
        }
        reject(
          new TrainerError(`The trainer stopped (${signal ?? `exit code ${code}`}): ${stderr.trim().slice(-1000)}`),
        );
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
