// The one rewrite, on the tiny house model with a quickly trained Voice: its events against a
// reference written out by hand from the contract at the top of rewrite.ts (chunking, prompt,
// budget, decoding, stop string), its rerolls and their bound, and the stitched whole.
import { rmSync } from 'node:fs';
import { chunkErrorMarker, separatorsOf, stitch } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrainedAdapter, writeGgufAdapter } from '../adapters/export.js';
import { chunkText } from '../chunking/chunk.js';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { VoiceEngine } from '../runtime/voice-engine.js';
import { SAMPLE_TEXT, tempDir, trainQuickAdapter } from '../test/fixtures.js';
import { rewritePrompt } from './prompts.js';
import { type RewriteEvent, rewriteText, rewriteWhole, stitchRewrite } from './rewrite.js';

const TEXT =
  '\n  The market opens at eight. Farmers bring bread, cheese and apples from the valley.\n\nParking is free on Sundays, and the bus stops at the gate.\n\tChildren under twelve enter for free.\n';
const MAX_CHARS = 90;

let dir: string;
let engine: VoiceEngine;

beforeAll(async () => {
  dir = tempDir();
  engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
  const adapter = await trainQuickAdapter(dir, HOUSE_MODEL_PATH, engine.runtime.tokenize(SAMPLE_TEXT));
  const voicePath = `${dir}/voice.gguf`;
  writeGgufAdapter(voicePath, readTrainedAdapter(adapter));
  await engine.wake('v', voicePath);
});

afterAll(async () => {
  await engine?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const collect = async (events: AsyncIterable<RewriteEvent>) => {
  const out: RewriteEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
};

/** The first attempt at one chunk, written out from the contract. */
const reference = (chunk: string) =>
  engine.complete(rewritePrompt(chunk), {
    voiceId: 'v',
    maxTokens: Math.ceil(engine.runtime.tokenize(chunk).length * 1.5) + 16,
    repeatPenalty: 1.3,
    stop: ['\n### '],
  });

describe('rewriteText', () => {
  it('rewrites chunk by chunk exactly as the contract says, and stitches into the layout', async () => {
    const { chunks } = chunkText(TEXT, { maxChars: MAX_CHARS });
    expect(chunks.length).toBeGreaterThan(1);
    const events = await collect(
      rewriteText(engine, TEXT, { voiceId: 'v', maxChars: MAX_CHARS, judge: () => ({ ok: true }) }),
    );
    expect(events[0]).toEqual({
      type: 'chunk_positions',
      chunkPositions: chunks.map((c) => ({ start: c.start, end: c.end })),
      baseText: TEXT,
    });
    const written: string[] = [];
    for (const e of events.slice(1)) {
      if (e.type !== 'chunk') throw new Error(`unexpected ${e.type}`);
      written[e.chunkIndex] = (written[e.chunkIndex] ?? '') + e.text;
    }
    const expected = await Promise.all(chunks.map((c) => reference(c.text)));
    expect(written).toEqual(expected);
    // Chunks come in order.
    const order = events.filter((e) => e.type === 'chunk').map((e) => e.chunkIndex);
    expect(order).toEqual([...order].sort((a, b) => a - b));

    const whole = stitch(
      expected.map((t) => t.trim()),
      separatorsOf(TEXT, chunks),
    );
    expect(
      await stitchRewrite(
        TEXT,
        (async function* () {
          yield* events;
        })(),
      ),
    ).toBe(whole);
  });

  it('asks again after a rejection, and ends a chunk with its error marker when attempts run out', async () => {
    const text = 'One short line to rewrite.';
    let calls = 0;
    const events = await collect(
      rewriteText(engine, text, {
        voiceId: 'v',
        maxChars: MAX_CHARS,
        maxAttempts: 3,
        judge: () => {
          calls++;
          return { ok: false, reason: 'forced' };
        },
      }),
    );
    expect(calls).toBe(3);
    expect(events.filter((e) => e.type === 'chunk_reroll')).toEqual(
      Array.from({ length: 3 }, () => ({ type: 'chunk_reroll', chunkIndex: 0, reason: 'forced' })),
    );
    expect(events.at(-1)).toEqual({ type: 'chunk', chunkIndex: 0, text: chunkErrorMarker(0, 'forced') });
    expect(
      await stitchRewrite(
        text,
        (async function* () {
          yield* events;
        })(),
      ),
    ).toBe(chunkErrorMarker(0, 'forced'));
  });

  it('starts greedy and keeps the first attempt the judge accepts', async () => {
    const text = 'The museum opens at ten and closes at six.';
    const attempts: string[] = [];
    const whole = await rewriteWhole(engine, text, {
      voiceId: 'v',
      maxChars: MAX_CHARS,
      judge: (_original, rewritten) => {
        attempts.push(rewritten);
        return attempts.length < 2 ? { ok: false, reason: 'forced' } : { ok: true };
      },
    });
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toBe(await reference(text));
    expect(whole).toBe((attempts[1] as string).trim());
  });

  it('stops at once when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(
      collect(rewriteText(engine, TEXT, { voiceId: 'v', maxChars: MAX_CHARS, signal: controller.signal })),
    ).rejects.toThrow('gone');
  });
});
