// A conversation read as Create's prompt and reference material, for /v1's chat completions.
import { describe, expect, it } from 'vitest';
import { chatPrompt } from './voice-chat.service.js';

describe('chatPrompt', () => {
  it('takes the last user message as the prompt and what came before as reference material', () => {
    expect(
      chatPrompt([
        { role: 'system', content: 'Write for parents.' },
        { role: 'assistant', content: '' },
        { role: 'user', content: [{ type: 'text', text: '  A note about the fair. ' }] },
      ]),
    ).toEqual({ prompt: 'A note about the fair.', reference: 'system: Write for parents.' });
    expect(chatPrompt([{ role: 'user', content: 'Just this' }])).toEqual({ prompt: 'Just this', reference: undefined });
  });

  it('refuses a conversation that does not end with something to write about', () => {
    expect(() => chatPrompt([{ role: 'assistant', content: 'Hi' }])).toThrow(/last message must be the user/);
    expect(() => chatPrompt([{ role: 'user', content: '   ' }])).toThrow(/empty/);
    expect(() => chatPrompt([{ role: 'user', content: 'x'.repeat(4001) }])).toThrow(/at most 4,000/);
  });
});
