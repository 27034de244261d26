// textDeltas: a callback-streaming generation read with `for await`, every character once and in
// order, with what arrives while the reader waits (or within the interval) gathered into one delta.
import { describe, expect, it } from 'vitest';
import { textDeltas } from './deltas.js';

/** A generation that writes `parts`, one per timer turn (`gapMs` apart), then resolves or fails. */
const writing =
  (parts: string[], gapMs = 0, failWith?: Error) =>
  async (onChunk: (text: string) => void) => {
    for (const part of parts) {
      await new Promise((r) => setTimeout(r, gapMs));
      onChunk(part);
    }
    if (failWith) throw failWith;
  };

async function collect(deltas: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const d of deltas) out.push(d);
  return out;
}

const PARTS = Array.from({ length: 30 }, (_, i) => `t${i} `);

describe('textDeltas', () => {
  it('yields every part once, in order', async () => {
    expect((await collect(textDeltas(undefined, writing(PARTS)))).join('')).toBe(PARTS.join(''));
  });

  it('gathers what arrives within the interval into fewer deltas, losing nothing', async () => {
    const one = await collect(textDeltas(undefined, writing(PARTS, 1)));
    const gathered = await collect(textDeltas(undefined, writing(PARTS, 1), { intervalMs: 25 }));
    expect(gathered.join('')).toBe(PARTS.join(''));
    expect(one).toHaveLength(PARTS.length);
    expect(gathered.length).toBeLessThan(PARTS.length / 2);
    // The first part is not held back.
    expect(gathered[0]).toBe(PARTS[0]);
  });

  it('throws the failure after the parts that came before it', async () => {
    const failure = new Error('unloaded');
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const d of textDeltas(undefined, writing(['a', 'b'], 0, failure), { intervalMs: 5 })) seen.push(d);
      })(),
    ).rejects.toBe(failure);
    expect(seen.join('')).toBe('ab');
  });

  it('ends with the abort reason when its signal fires, without waiting out a hold', async () => {
    const controller = new AbortController();
    const reason = new Error('the reader left');
    const run = async (onChunk: (text: string) => void) => {
      onChunk('a');
      await new Promise((r) => setTimeout(r, 5));
      onChunk('b');
      controller.abort(reason);
    };
    await expect(collect(textDeltas(controller.signal, run, { intervalMs: 60_000 }))).rejects.toBe(reason);
  });
});
