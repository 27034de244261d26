// The model's chat template is resolved once per model, not once per chat: resolving compares the
// template with every built-in wrapper by rendering it many times, synchronously, which stopped the
// service's event loop for seconds at a time while a Voice's paraphrases were written.
import { rmSync } from 'node:fs';
import { JinjaTemplateChatWrapper } from 'node-llama-cpp';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { smallHparams, tempDir, writeRandomModel } from '../test/fixtures.js';
import { VoiceEngine } from './voice-engine.js';

let dir: string;
let engine: VoiceEngine;
const renders = vi.spyOn(JinjaTemplateChatWrapper.prototype, 'generateContextState');
let rendersAtLoad = 0;
beforeAll(async () => {
  dir = tempDir();
  renders.mockClear();
  engine = await VoiceEngine.start({ modelPath: writeRandomModel(dir, smallHparams()) });
  rendersAtLoad = renders.mock.calls.length;
});
afterAll(async () => {
  renders.mockRestore();
  await engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

it('renders the Jinja template to resolve it as the model loads, never again for the chats that follow', async () => {
  // Resolving renders the model's template against the built-in wrappers, and finds ChatML's.
  expect(rendersAtLoad).toBeGreaterThan(0);
  expect(engine.runtime.chatWrapper.wrapperName).toBe('ChatML');
  renders.mockClear();
  const messages = [
    { role: 'system' as const, content: 'You rewrite text.' },
    { role: 'user' as const, content: 'Say something.' },
  ];
  await engine.chat(messages, { maxTokens: 4 });
  await engine.chatBatch(
    Array.from({ length: 4 }, () => ({ messages, options: { maxTokens: 4 } })),
    { sequences: 2 },
  );
  expect(renders).not.toHaveBeenCalled();
});
