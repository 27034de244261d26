// The extraction process isolated.ts starts: reads one file at a time and answers with its text
// or its TextExtractionError. Exits when its parent goes.
import { TextExtractionError } from './errors.js';
import type { ChildReply, ChildRequest } from './isolated.js';
import { parseFile, parseTrainingText } from './parse.js';

const send = (reply: ChildReply | 'ready') => process.send?.(reply);

process.on('message', async (request: ChildRequest) => {
  const data = Buffer.from(request.data.buffer, request.data.byteOffset, request.data.byteLength);
  const file = { name: request.name, data };
  try {
    const result = request.mode === 'training' ? await parseTrainingText(file) : await parseFile(file);
    send({ id: request.id, ok: true, result, rss: process.memoryUsage.rss() });
  } catch (error) {
    const known = error instanceof TextExtractionError;
    send({
      id: request.id,
      ok: false,
      code: known ? error.code : 'UNREADABLE',
      message: known ? error.message : `${request.name} could not be read`,
      rss: process.memoryUsage.rss(),
    });
  }
});
process.on('disconnect', () => process.exit(0));
send('ready');
