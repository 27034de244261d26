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
beforeAll(async () => {
  dir = tempDir();
  engine = await VoiceEngine.start({ modelPath: writeRandomModel(dir, smallHparams()) });
});
afterAll(async () => {
  await engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

it('renders the Jinja template to resolve it once, never again for the chats that follow', async () => {
  const messages = [
    { role: 'system' as const, content: 'You rewrite text.' },
    { role: 'user' as const, content: 'Say something.' },
  ];
  const renders = vi.spyOn(JinjaTemplateChatWrapper.prototype, 'generateContextState');
  try {
    // Resolving renders the model's template against the built-in wrappers, and finds ChatML's.
    expect(engine.runtime.chatWrapper.wrapperName).toBe('ChatML');
    expect(renders).toHaveBeenCalled();
    renders.mockClear();
    await engine.chat(messages, { maxTokens: 4 });
    await engine.chatBatch(
      Array.from({ length: 4 }, () => ({ messages, options: { maxTokens: 4 } })),
      { sequences: 2 },
    );
    expect(engine.runtime.chatWrapper).toBe(engine.runtime.chatWrapper);
    expect(renders).not.toHaveBeenCalled();
  } finally {
    renders.mockRestore();
  }
});
