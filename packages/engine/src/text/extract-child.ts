// The extraction process isolated.ts starts: reads one file at a time and answers with its text
// or its TextExtractionError. It collects its garbage after each file, before it answers: a file
// that inflated 64 MB and was refused leaves that much behind, and an idle reader would keep it
// until the next file. The size it then reports is what it holds, which is what the pool judges
// it by (EXTRACTOR_LIMITS.keepRssBytes).
import { childSide } from '../isolation/child-pool.js';
import { TextExtractionError } from './errors.js';
import type { ExtractionJob, ExtractionReply } from './isolated.js';
import { parseFile, parseTrainingText } from './parse.js';

// isolated.ts starts readers with --expose-gc.
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => {});

childSide<ExtractionJob, ExtractionReply>(async (job) => {
  try {
    return await read(job);
  } finally {
    collectGarbage();
  }
});

async function read(job: ExtractionJob): Promise<ExtractionReply> {
  const data = Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength);
  const file = { name: job.name, data };
  try {
    const result = job.mode === 'training' ? await parseTrainingText(file) : await parseFile(file);
    return { ok: true, result };
  } catch (error) {
    const known = error instanceof TextExtractionError;
    return {
      ok: false,
      code: known ? error.code : 'UNREADABLE',
      message: known ? error.message : `${job.name} could not be read`,
    };
  }
}
