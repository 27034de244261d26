// The code examples of docs/api.md, as a reader copies them: checked by scripts/api-doc-examples.test.ts
// (TypeScript type-checks, Python and shell parse) and run as written by the API journey.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const REPO = path.resolve(import.meta.dirname, '..', '..');

/** The code of every fenced block of `language` (ts, python, sh) in docs/api.md, in order. */
export function docBlocks(language: string): string[] {
  const doc = readFileSync(path.join(REPO, 'docs', 'api.md'), 'utf8');
  return [...doc.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1] ?? '');
}

/** The one block of `language` that uses the openai package: the SDK example. */
export function sdkExample(language: 'ts' | 'python'): string {
  const found = docBlocks(language).filter((code) => /^(import OpenAI from 'openai';|import openai)$/m.test(code));
  if (found.length !== 1)
    throw new Error(`docs/api.md has ${found.length} ${language} blocks with the openai SDK, not 1`);
  return found[0] as string;
}
