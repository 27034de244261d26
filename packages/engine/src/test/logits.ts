// Logits from the trainer (PyTorch) for comparison with llama.cpp's, and the comparison.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runTrainer } from '../trainer/python.js';

/** Runs a trainer command that writes float32 logits (positions x vocab) and reads them back. */
export async function trainerLogits(
  dir: string,
  command: 'forward' | 'peft-forward' | 'plain-logits',
  request: Record<string, unknown>,
  tokens: number[],
  vocab: number,
): Promise<Float32Array[]> {
  const out = path.join(dir, `logits-${Math.random().toString(36).slice(2)}.f32`);
  await runTrainer(command, { ...request, tokens: [tokens], out });
  const raw = readFileSync(out);
  const all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  if (all.length !== tokens.length * vocab)
    throw new Error(`expected ${tokens.length * vocab} logits, got ${all.length}`);
  return tokens.map((_, p) => all.slice(p * vocab, (p + 1) * vocab));
}

/** Largest absolute difference, and the largest absolute value of `a` (the scale). */
export function compareLogits(a: Float32Array[], b: Float32Array[]): { maxDiff: number; maxAbs: number } {
  let maxDiff = 0;
  let maxAbs = 0;
  a.forEach((row, p) => {
    const other = b[p] as Float32Array;
    for (let v = 0; v < row.length; v++) {
      maxDiff = Math.max(maxDiff, Math.abs((row[v] as number) - (other[v] as number)));
      maxAbs = Math.max(maxAbs, Math.abs(row[v] as number));
    }
  });
  return { maxDiff, maxAbs };
}
