// Semantic similarity of pairs of texts, by the trainer's `similarity` command
// (python/ownvoice_trainer/similarity.py): the cosine of the texts' all-MiniLM-L6-v2 sentence
// embeddings, about 1 for the same meaning in other words and near 0 for unrelated texts. The
// harness measures how much of its input a rewrite kept with it, beside content-word recall,
// which a paraphrase with synonyms would fail.
//
// The model's files come from base-model/embedding-model.ts (fetched once per machine); this
// module only needs their paths, so it stays beside the other trainer commands. Shapes: pairs
// [[a, b], ...] -> number[] (one cosine, -1..1, per pair, in order).
import { type RunOptions, runTrainer, TrainerError } from './python.js';

/** The embedding model's files: the shape base-model/embedding-model.ts's embeddingModelFiles gives. */
export interface EmbeddingModelFiles {
  weights: string;
  vocab: string;
  config: string;
}

export async function semanticSimilarities(
  model: EmbeddingModelFiles,
  pairs: readonly (readonly [string, string])[],
  options: RunOptions = {},
): Promise<number[]> {
  if (!pairs.length) return [];
  const done = await runTrainer('similarity', { model, pairs }, options);
  const similarities = done.similarities;
  if (!Array.isArray(similarities) || similarities.length !== pairs.length) {
    throw new TrainerError(
      `the trainer answered ${JSON.stringify(similarities)?.slice(0, 200)} for ${pairs.length} pairs`,
    );
  }
  return similarities.map(Number);
}
