// The extraction process isolated.ts starts: reads one file at a time and answers with its text
// or its TextExtractionError.
import { childSide } from '../isolation/child-pool.js';
import { TextExtractionError } from './errors.js';
import type { ExtractionJob, ExtractionReply } from './isolated.js';
import { parseFile, parseTrainingText } from './parse.js';

childSide<ExtractionJob, ExtractionReply>(async (job) => {
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
});
