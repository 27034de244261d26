// Where tests find the real base model, SmolLM2-135M-Instruct from PyPI. `npm test` fetches it
// once per machine into the cache below (`scripts/fetch-real-model.sh`) and names it in
// OWNVOICE_TEST_REAL_MODEL; a developer who ran that once finds it there too. Outside CI a
// machine without it skips the real-model tests; in CI they run, and fail without the model.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { packagedModelPath, SMOLLM2_135M } from '../base-model/packaged-model.js';

/** The machine's model cache: fetched once here, reused by every checkout and CI run. */
export const REAL_MODEL_CACHE = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'ownvoice');

const named = process.env.OWNVOICE_TEST_REAL_MODEL;
const cached = packagedModelPath(SMOLLM2_135M, path.join(REAL_MODEL_CACHE, 'models'));

/** The real model's file, when this machine has it. */
export const REAL_MODEL: string | undefined = named ?? (existsSync(cached) ? cached : undefined);

/** Whether to skip real-model tests: only outside CI, on a machine without the model. */
export const SKIP_REAL_MODEL = !REAL_MODEL && process.env.CI !== 'true';

/**
 * llama.cpp's and PyTorch's threads for the real model in tests: one, where the product takes one
 * per core. llama.cpp's threads meet at a barrier after every operation; on CI's two cores, shared
 * by three lanes of tests, a thread at the barrier spins while the other waits for a core. Beside
 * two busy loops the real-model harness took 330 s of CPU on two threads and 200 s on one, and its
 * wall time went from 400 s to 323 s; alone it took 198 s of CPU on two. Greedy tokens are the
 * same on either. Its trainer on one thread (one process, not two sharing each step) took 166 s
 * of CPU for the whole harness beside the loops, against 182 s on two, with the same figures.
 */
export const REAL_MODEL_THREADS = 1;
