// The Voice page's base model, as the server renders it to HTML (no DOM here): the fact, and the
// notice when this server runs another model or the Voice's base was not recorded (decision 31).
import { MantineProvider } from '@mantine/core';
import type { VoiceBaseModel } from '@ownvoice/shared';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BaseModelFact, BaseModelNotice } from './VoiceBaseModel';

const SHA = 'ab'.repeat(32);
const recorded = (overrides: Partial<VoiceBaseModel> = {}): VoiceBaseModel => ({
  state: 'recorded',
  name: 'smollm2-135m',
  file: 'SmolLM2-135M-Instruct-Q8_0.gguf',
  sha256: SHA,
  bytes: 144_811_008,
  onThisServer: 'same',
  serverModel: 'smollm2-135m',
  ...overrides,
});
const unknown = (overrides: Partial<VoiceBaseModel> = {}): VoiceBaseModel => ({
  state: 'unknown',
  name: null,
  file: null,
  sha256: null,
  bytes: null,
  onThisServer: 'unknown',
  serverModel: 'tiny',
  ...overrides,
});

/** The markup, without the style sheets Mantine writes first. */
const html = (node: ReactNode): string =>
  renderToStaticMarkup(<MantineProvider>{node}</MantineProvider>).replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
const text = (node: ReactNode): string =>
  html(node)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

describe('BaseModelFact', () => {
  it('names the model, its file and the start of its SHA-256, with the whole hash on hover', () => {
    const markup = html(<BaseModelFact baseModel={recorded()} />);
    expect(text(<BaseModelFact baseModel={recorded()} />)).toBe(
      'smollm2-135m SmolLM2-135M-Instruct-Q8_0.gguf, SHA-256 abababababab…',
    );
    expect(markup).toContain(`title="SHA-256 ${SHA}"`);
  });

  it('says when the base was not recorded, and what the Voice’s files name', () => {
    expect(text(<BaseModelFact baseModel={unknown()} />)).toBe('Not recorded');
    expect(text(<BaseModelFact baseModel={unknown({ file: 'ownvoice-tiny.gguf' })} />)).toBe(
      'Not recorded Its files name ownvoice-tiny.gguf',
    );
    expect(text(<BaseModelFact baseModel={null} />)).toBe('Chosen when its training starts');
  });
});

describe('BaseModelNotice', () => {
  it('says nothing when this server runs the Voice’s own base model', () => {
    expect(html(<BaseModelNotice baseModel={recorded()} />)).toBe('');
    expect(html(<BaseModelNotice baseModel={null} />)).toBe('');
  });

  it('warns, as an alert, that a Voice on another base model will not wake here, and says what to do', () => {
    const node = <BaseModelNotice baseModel={recorded({ onThisServer: 'other', serverModel: 'tiny' })} />;
    expect(html(node)).toContain('role="alert"');
    const said = text(node);
    expect(said).toContain('Trained on another base model');
    expect(said).toContain('trained on the base model smollm2-135m (SmolLM2-135M-Instruct-Q8_0.gguf, SHA-256');
    expect(said).toContain('this OwnVoice runs tiny');
    expect(said).toContain('create it again from your writing');
    expect(said).toContain('run OwnVoice on smollm2-135m');
  });

  it('names the file an unrecorded Voice’s files give when it is not the one this server runs', () => {
    const said = text(
      <BaseModelNotice baseModel={unknown({ file: 'ownvoice-tiny.gguf', onThisServer: 'other', serverModel: 'x' })} />,
    );
    expect(said).toContain('its files say it was trained on a model file named ownvoice-tiny.gguf');
  });

  it('tells the owner of a Voice whose base was not recorded that it wakes, and when to train it again', () => {
    const node = <BaseModelNotice baseModel={unknown()} />;
    expect(html(node)).toContain('role="status"');
    expect(text(node)).toContain('Base model not recorded');
    expect(text(node)).toContain('It wakes on tiny');
  });
});
