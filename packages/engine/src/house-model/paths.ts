import { fileURLToPath } from 'node:url';

/** The tiny house model shipped in the repo (rebuilt by `ownvoice-engine build-tiny-model`). */
export const HOUSE_MODEL_PATH = fileURLToPath(new URL('../../models/ownvoice-tiny.gguf', import.meta.url));
export const CORPUS_DIR = fileURLToPath(new URL('../../corpus', import.meta.url));
