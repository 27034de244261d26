// What a Voice's evaluation rewrites (evaluate.ts): the neutral paragraphs a preset asks for,
// spread over the file, and every text asked of the engine longest first, answers in the order given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorWriting } from '../corpus/authors.js';
import { neutralParagraphs } from '../corpus/neutral.js';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { VoiceEngine } from '../runtime/voice-engine.js';
import { splitPassages } from '../text/passages.js';
import { evaluationParagraphs, longestFirst, readsAs, rewriteAll } from './evaluate.js';
import { rewritePrompt } from './prompts.js';
import { VOICE_PRESETS } from './train-voice.js';

describe('evaluationParagraphs', () => {
  it('takes every paragraph when no count is given, and the tiny preset gives none', () => {
    expect(VOICE_PRESETS.tiny.evaluationParagraphs).toBeUndefined();
    expect(evaluationParagraphs()).toEqual(neutralParagraphs());
  });

  it('spreads the standard preset’s count over the file, in order', () => {
    const all = neutralParagraphs();
    const n = VOICE_PRESETS.standard.evaluationParagraphs as number;
    const some = evaluationParagraphs(n);
    expect(some).toHaveLength(n);
    expect(n).toBeLessThan(all.length);
    const at = some.map((p) => all.indexOf(p));
    expect(at[0]).toBe(0);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    // Every other paragraph where the count is half: no run of the file left out.
    for (let i = 1; i < at.length; i++) expect((at[i] as number) - (at[i - 1] as number)).toBeLessThanOrEqual(2);
  });
});

describe('readsAs', () => {
  // A person who writes like the Jargon File: held-out passages of it, as a Voice's held-out pairs have them.
  const passages = splitPassages(authorWriting('jargon'), { maxChars: 700, minChars: 233 });
  const held = passages.slice(0, 12);

  it('reads text in the person’s style as theirs and plain prose as not, with the classifier’s accuracy', () => {
    const sameStyle = passages.slice(40, 54).map((p) => p.slice(0, 300));
    const plain = neutralParagraphs().slice(0, 14);
    const read = readsAs(held, sameStyle, plain);
    expect(read?.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(read?.passages).toBeGreaterThanOrEqual(12);
    expect(read?.voice.share).toBeGreaterThanOrEqual(0.8);
    expect(read?.base.share).toBeLessThanOrEqual(0.2);
    expect(read?.voice.spread.n).toBe(14);
    expect(read?.voice.spread.low).toBeLessThanOrEqual(read?.voice.share as number);
  });

  it('says nothing when the held-out writing is too short to learn a style from', () => {
    expect(readsAs(['A single short passage of writing, not enough for anything.'], ['a'], ['b'])).toBeUndefined();
  });
});

describe('longestFirst', () => {
  it('orders indices by length, longest first, ties in their order', () => {
    expect(longestFirst(['ab', 'abcd', 'a', 'cd', 'abc'])).toEqual([1, 4, 0, 3, 2]);
  });
});

describe('rewriteAll', () => {
  let engine: VoiceEngine;
  beforeAll(async () => {
    engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
  });
  afterAll(async () => {
    await engine?.dispose();
  });

  it('asks the engine for the longest text first and answers in the order given', async () => {
    const texts = [
      'The bus stops at the gate.',
      neutralParagraphs()[0] as string,
      'Parking is free on Sundays and holidays.',
    ];
    const asked: string[] = [];
    // The real engine, with each prompt it is asked for written down on the way in.
    const recording = new Proxy(engine, {
      get(target, key, receiver) {
        if (key === 'complete')
          return (prompt: string, options?: Parameters<VoiceEngine['complete']>[1]) => {
            asked.push(prompt);
            return target.complete(prompt, options);
          };
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const rewrites = await rewriteAll(recording, undefined, texts, { maxChars: 1500 });
    expect(asked).toEqual([1, 2, 0].map((i) => rewritePrompt(texts[i] as string)));
    expect(rewrites).toHaveLength(3);
    const alone = await rewriteAll(engine, undefined, [texts[0] as string], { maxChars: 1500 });
    expect(rewrites[0]).toBe(alone[0]);
  });
});
