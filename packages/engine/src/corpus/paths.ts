import path from 'node:path';
import { ENGINE_DIR } from '../package-dir.js';

/** The tiny house model shipped in the repo (rebuilt by `ownvoice-engine build-tiny-model`). */
export const HOUSE_MODEL_PATH = path.join(ENGINE_DIR, 'models', 'ownvoice-tiny.gguf');
export const CORPUS_DIR = path.join(ENGINE_DIR, 'corpus');
