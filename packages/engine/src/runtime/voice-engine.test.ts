import { copyFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrainedAdapter, writeGgufAdapter } from '../adapters/export.js';
import { SAMPLE_TEXT, smallHparams, tempDir, trainQuickAdapter, writeRandomModel } from '../test/fixtures.js';
import { laneThreads } from './llama-runtime.js';
import type { GenerationEnd } from './text-generator.js';
import { VoiceEngine, VoiceNotAwakeError } from './voice-engine.js';

let dir: string;
let engine: VoiceEngine;
let voiceA: string;
let voiceB: string;
let basePath: string;
const PROMPT = 'It was a bright cold day in April, and';
/** Five chats of a batch, each with its own budget. */
const BATCH = ['Say something.', 'Write about April.', 'Describe the hallway.', 'Name a colour.', 'Go on.'].map(
  (content, i) => ({
    messages: [
      { role: 'system' as const, content: 'You rewrite text.' },
      { role: 'user' as const, content },
    ],
    options: { maxTokens: 6 + 3 * i },
  }),
);

const loadedAdapters = () => [
  ...((engine.runtime.model as unknown as { _loraAdapters: Map<string, unknown> })._loraAdapters?.keys() ?? []),
];

beforeAll(async () => {
  dir = tempDir();
  basePath = writeRandomModel(dir, smallHparams());
  engine = await VoiceEngine.start({ modelPath: basePath });
  const tokens = engine.runtime.tokenize(SAMPLE_TEXT);
  voiceA = path.join(dir, 'voice-a-v1.gguf');
  voiceB = path.join(dir, 'voice-b-v1.gguf');
  writeGgufAdapter(voiceA, readTrainedAdapter(await trainQuickAdapter(dir, basePath, tokens, 1)));
  writeGgufAdapter(voiceB, readTrainedAdapter(await trainQuickAdapter(dir, basePath, tokens.slice(40), 2)));
});
afterAll(async () => {
  await engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** The contexts `target` opens while `work` runs, with their threads and sequences when opened. */
async function contextsOpenedBy(target: VoiceEngine, work: () => Promise<unknown>) {
  const contexts: { disposed: boolean; threads: number; sequences: number }[] = [];
  const create = target.runtime.createContext.bind(target.runtime);
  target.runtime.createContext = async (...args) => {
    const context = await create(...args);
    contexts.push(Object.assign(context, { threads: context.currentThreads, sequences: context.totalSequences }));
    return context;
  };
  try {
    await work();
  } finally {
    target.runtime.createContext = create;
  }
  return contexts;
}

describe('VoiceEngine', () => {
  it('writes differently with a Voice awake than the base model, deterministically at temperature 0', async () => {
    await engine.wake('a', voiceA);
    expect(engine.isAwake('a')).toBe(true);
    const base = await engine.complete(PROMPT, { maxTokens: 24 });
    const voice = await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'a' });
    expect(base.length).toBeGreaterThan(0);
    expect(voice).not.toBe(base);
    expect(await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'a' })).toBe(voice);
  });

  it('samples each unseeded request afresh, and repeats a seeded one', async () => {
    const sampled = { maxTokens: 16, temperature: 1, ignoreEos: true };
    // Within one second: node-llama-cpp's own fallback seed is the current second.
    const unseeded = await Promise.all([1, 2, 3].map(() => engine.complete(PROMPT, sampled)));
    expect(new Set(unseeded).size).toBeGreaterThan(1);
    const seeded = await engine.complete(PROMPT, { ...sampled, seed: 5 });
    expect(await engine.complete(PROMPT, { ...sampled, seed: 5 })).toBe(seeded);
  });

  it('streams the text in chunks that add up to the result', async () => {
    const chunks: string[] = [];
    const text = await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'a', onChunk: (c) => chunks.push(c) });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(text);
  });

  it('stops generating as soon as the caller aborts', async () => {
    const controller = new AbortController();
    let chunks = 0;
    const text = await engine.complete(PROMPT, {
      maxTokens: 200,
      signal: controller.signal,
      onChunk: () => {
        chunks++;
        if (chunks === 3) controller.abort();
      },
    });
    expect(chunks).toBeLessThanOrEqual(4);
    expect(text.length).toBeLessThan((await engine.complete(PROMPT, { maxTokens: 200 })).length);
  });

  it('reports how a generation ended: the token budget, a stop string, or an abort', async () => {
    const ends: GenerationEnd[] = [];
    const onFinish = (end: GenerationEnd) => ends.push(end);
    const free = await engine.complete(PROMPT, { maxTokens: 12, ignoreEos: true, onFinish });
    expect(ends.pop()).toEqual({ reason: 'length', tokens: 12 });
    const stop = free.slice(4, 6);
    const stopped = await engine.complete(PROMPT, { maxTokens: 12, ignoreEos: true, stop: [stop], onFinish });
    expect(stopped).toBe(free.slice(0, free.indexOf(stop)));
    expect(ends.pop()).toMatchObject({ reason: 'stop', stopString: stop });
    await engine.chat([{ role: 'user', content: 'Say something.' }], { maxTokens: 3, ignoreEos: true, onFinish });
    expect(ends.pop()).toEqual({ reason: 'length', tokens: 3 });
    const controller = new AbortController();
    await engine.complete(PROMPT, {
      maxTokens: 200,
      ignoreEos: true,
      signal: controller.signal,
      onChunk: () => controller.abort(),
      onFinish,
    });
    expect(ends.pop()?.reason).toBe('abort');
  });

  it('serves several requests at once, queuing those beyond its sequences', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        engine.complete(PROMPT, { maxTokens: 8 + i, voiceId: i % 2 ? 'a' : undefined }),
      ),
    );
    expect(results.every((r) => r.length > 0)).toBe(true);
  });

  it('keeps two Voices awake at once, each with its own adapter', async () => {
    await engine.wake('b', voiceB);
    const a = await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'a' });
    const b = await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'b' });
    expect(a).not.toBe(b);
    await engine.sleep('b');
  });

  it('frees the adapter on sleep and refuses to write in a sleeping Voice', async () => {
    await engine.sleep('a');
    expect(engine.isAwake('a')).toBe(false);
    expect(loadedAdapters().some((p) => p.endsWith('voice-a-v1.gguf'))).toBe(false);
    await expect(engine.complete(PROMPT, { voiceId: 'a' })).rejects.toBeInstanceOf(VoiceNotAwakeError);
  });

  it('stops and awaits every generation on a Voice put to sleep under it, then frees its context', async () => {
    for (let round = 0; round < 10; round++) {
      await engine.wake('s', voiceA);
      let first: () => void = () => {};
      const started = new Promise<void>((resolve) => {
        first = resolve;
      });
      // Three at once: two on the Voice's sequences, one waiting in line for them.
      const running = Array.from({ length: 3 }, () =>
        engine.complete(PROMPT, { maxTokens: 400, voiceId: 's', onChunk: () => first() }).then(
          () => undefined,
          (error: unknown) => error,
        ),
      );
      await started;
      await engine.sleep('s', 'put to sleep by its owner');
      for (const error of await Promise.all(running)) {
        expect(error).toBeInstanceOf(VoiceNotAwakeError);
        expect((error as VoiceNotAwakeError).reason).toBe('put to sleep by its owner');
      }
      expect(engine.isAwake('s')).toBe(false);
    }
    // The engine goes on serving.
    expect((await engine.complete(PROMPT, { maxTokens: 8 })).length).toBeGreaterThan(0);
  });

  it('runs the wakes and sleeps of one Voice one at a time, leaving no context behind', async () => {
    const contexts: { disposed: boolean }[] = [];
    const create = engine.runtime.createContext.bind(engine.runtime);
    engine.runtime.createContext = async (...args) => {
      const context = await create(...args);
      contexts.push(context);
      return context;
    };
    try {
      for (let round = 0; round < 30; round++) {
        await Promise.all([engine.wake('r', round % 2 ? voiceA : voiceB), engine.sleep('r'), engine.wake('r', voiceA)]);
        expect(engine.isAwake('r')).toBe(true);
        expect(contexts.filter((c) => !c.disposed)).toHaveLength(1);
      }
      await engine.sleep('r');
      expect(contexts.filter((c) => !c.disposed)).toHaveLength(0);
    } finally {
      engine.runtime.createContext = create;
    }
  });

  it('serves the new weights when an adapter file is replaced under the same name', async () => {
    const replaced = path.join(dir, 'voice-c.gguf');
    copyFileSync(voiceA, replaced);
    await engine.wake('c', replaced);
    const first = await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'c' });
    copyFileSync(voiceB, replaced);
    await engine.wake('c', replaced);
    await engine.wake('b', voiceB);
    const second = await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'c' });
    expect(second).not.toBe(first);
    expect(second).toBe(await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'b' }));
  });

  it('keeps one file awake under two names until both sleep: putting one to sleep leaves the other writing', async () => {
    const shared = path.join(dir, 'voice-shared.gguf');
    copyFileSync(voiceA, shared);
    const isShared = (p: string) => p === path.resolve(shared);
    await engine.wake('one', shared);
    await engine.wake('two', shared);
    const before = await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'two' });
    await engine.sleep('one');
    // Freed by path here, the adapter under 'two' would be read after free (the process dies).
    expect(loadedAdapters().some(isShared)).toBe(true);
    expect(await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'two' })).toBe(before);
    await engine.sleep('two');
    expect(loadedAdapters().some(isShared)).toBe(false);
  });

  it('refuses a rewritten file under a second name while the first still serves its old contents', async () => {
    const shared = path.join(dir, 'voice-rewritten.gguf');
    copyFileSync(voiceA, shared);
    await engine.wake('first', shared);
    copyFileSync(voiceB, shared);
    await expect(engine.wake('second', shared)).rejects.toThrow(/changed since another adapter name loaded it/);
    expect(engine.isAwake('second')).toBe(false);
    await engine.sleep('first');
    // Nobody holds the old contents now: the new ones load.
    await engine.wake('second', shared);
    await engine.wake('b2', voiceB);
    expect(await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'second' })).toBe(
      await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'b2' }),
    );
    await engine.sleep('second');
    await engine.sleep('b2');
  });

  it('answers a missing adapter with a clear error', async () => {
    await expect(engine.wake('x', path.join(dir, 'gone.gguf'))).rejects.toThrow(/adapter file is missing/);
  });

  it('answers a batch of chats in order, each as chat() answers it alone', async () => {
    const finished: number[] = [];
    let answers: string[] = [];
    const contexts = await contextsOpenedBy(engine, async () => {
      answers = await engine.chatBatch(BATCH, { sequences: 3, onAnswer: (i) => finished.push(i) });
    });
    // The batch had a context of its own, freed when it ended.
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.disposed).toBe(true);
    expect([...finished].sort()).toEqual([0, 1, 2, 3, 4]);
    for (const [i, chat] of BATCH.entries()) expect(answers[i]).toBe(await engine.chat(chat.messages, chat.options));
    expect(new Set(answers).size).toBeGreaterThan(1);
  });

  it('stops a batch when its caller aborts, and goes on serving', async () => {
    const controller = new AbortController();
    const chats = Array.from({ length: 6 }, () => ({
      messages: [
        { role: 'system' as const, content: 'You rewrite text.' },
        { role: 'user' as const, content: 'Say something.' },
      ],
      options: { maxTokens: 100 },
    }));
    // Aborted as the first answer comes: one generation is under way, four have not started.
    const batch = engine.chatBatch(chats, {
      sequences: 2,
      signal: controller.signal,
      onAnswer: () => controller.abort(new Error('stopped by its caller')),
    });
    await expect(batch).rejects.toThrow(/stopped by its caller/);
    expect((await engine.complete(PROMPT, { maxTokens: 8 })).length).toBeGreaterThan(0);
  });

  it('chats with the model template', async () => {
    const reply = await engine.chat(
      [
        { role: 'system', content: 'You rewrite text.' },
        { role: 'user', content: 'Say something.' },
      ],
      { maxTokens: 12 },
    );
    expect(typeof reply).toBe('string');
  });
});

describe('VoiceEngine on two lanes (two threads)', () => {
  let wide: VoiceEngine;
  beforeAll(async () => {
    wide = await VoiceEngine.start({ modelPath: basePath, threads: 2 });
  });
  afterAll(async () => {
    await wide?.dispose();
  });

  it('shares its threads out over two lanes', () => {
    expect(wide.runtime.lanes()).toEqual([1, 1]);
    // One chat takes every thread on one context.
    expect(wide.runtime.lanes(1)).toEqual([2]);
    expect([1, 3, 8].map((threads) => laneThreads(threads))).toEqual([[1], [2, 1], [4, 4]]);
  });

  it('spreads a batch over a context of one thread per lane, answering as one context does', async () => {
    let answers: string[] = [];
    const contexts = await contextsOpenedBy(wide, async () => {
      answers = await wide.chatBatch(BATCH, { sequences: 4 });
    });
    expect(contexts.map((c) => [c.threads, c.sequences, c.disposed])).toEqual([
      [1, 2, true],
      [1, 2, true],
    ]);
    expect(answers).toEqual(await engine.chatBatch(BATCH, { sequences: 4 }));
  });

  it('wakes a Voice wide for many generations at once, and frees every context when it sleeps', async () => {
    const contexts = await contextsOpenedBy(wide, () => wide.wake('eval', voiceA, { wide: true }));
    expect(contexts.map((c) => c.threads)).toEqual([1, 1]);
    await engine.wake('a', voiceA);
    const alone = await engine.complete(PROMPT, { maxTokens: 24, voiceId: 'a' });
    const together = await Promise.all(
      Array.from({ length: 4 }, () => wide.complete(PROMPT, { maxTokens: 24, voiceId: 'eval' })),
    );
    expect(together).toEqual(Array(4).fill(alone));
    await wide.sleep('eval');
    expect(contexts.every((c) => c.disposed)).toBe(true);
  });

  it('keeps one context for a Voice awake for people', async () => {
    const contexts = await contextsOpenedBy(wide, () => wide.wake('person', voiceA));
    expect(contexts.map((c) => c.threads)).toEqual([2]);
    await wide.sleep('person');
  });
});
