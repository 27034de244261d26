// The process merged-model.ts starts: merges one Voice into its base model at a time.
import { childSide } from '../isolation/child-pool.js';
import { type MergeJob, mergeAdapter } from './merge.js';

/** The merged file's size, or why it could not be made. */
export type MergeReply = { bytes: number } | { message: string };

childSide<MergeJob, MergeReply>(async (job) => {
  try {
    return mergeAdapter(job);
  } catch (error) {
    return { message: error instanceof Error ? error.message : String(error) };
  }
});
