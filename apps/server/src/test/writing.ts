// Writing to train on in tests: real prose from the engine's corpus (documents.ts makes files of it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from '@ownvoice/engine';

/** At least `chars` characters of the Jargon File, cut at a paragraph break. */
export function writingSample(chars: number, offset = 0.3): string {
  const text = readFileSync(path.join(CORPUS_DIR, 'jargon.txt'), 'utf8');
  const start = text.indexOf('\n\n', Math.floor(text.length * offset)) + 2;
  const end = text.indexOf('\n\n', start + chars);
  return text.slice(start, end);
}
