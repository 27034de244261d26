// The model's chat template is resolved once per model, not once per chat: resolving compares the
// template with every built-in wrapper by rendering it many times, synchronously, which stopped the
// service's event loop for seconds at a time while a Voice's paraphrases were written.
import { rmSync } from 'node:fs';
import type { LlamaChatSessionOptions } from 'node-llama-cpp';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { smallHparams, tempDir, writeRandomModel } from '../test/fixtures.js';
import { VoiceEngine } from './voice-engine.js';

/** The options of every chat session the engine opens. */
const sessions = vi.hoisted(() => [] as LlamaChatSessionOptions[]);
vi.mock('node-llama-cpp', async (importOriginal) => {
  const original = await importOriginal<typeof import('node-llama-cpp')>();
  class RecordedSession extends original.LlamaChatSession {
    constructor(options: LlamaChatSessionOptions) {
      sessions.push(options);
      super(options);
    }
  }
  return { ...original, LlamaChatSession: RecordedSession };
});

let dir: string;
let engine: VoiceEngine;
beforeAll(async () => {
  dir = tempDir();
  engine = await VoiceEngine.start({ modelPath: writeRandomModel(dir, smallHparams()) });
});
afterAll(async () => {
  await engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

it("gives every chat the model's template as resolved once", async () => {
  const messages = [
    { role: 'system' as const, content: 'You rewrite text.' },
    { role: 'user' as const, content: 'Say something.' },
  ];
  await engine.chat(messages, { maxTokens: 4 });
  await engine.chatBatch(
    Array.from({ length: 4 }, () => ({ messages, options: { maxTokens: 4 } })),
    { sequences: 2 },
  );
  expect(sessions).toHaveLength(5);
  const template = engine.runtime.chatWrapper;
  expect(template.wrapperName).toBeTruthy();
  for (const options of sessions) expect(options.chatWrapper).toBe(template);
});
