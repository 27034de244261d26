// The inference client against a real inference server (apps/inference on the house model, run as
// the embedded process is, by the supervisor): generations with their ends, token counts, a chat
// too long for the model's context fitted into it, and each failure as the engine's error.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type GenerationEnd, HOUSE_MODEL_PATH, VoiceNotAwakeError } from '@ownvoice/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdapterRejectedError,
  InferenceEndpoint,
  InferenceUnavailableError,
  PromptTooLongError,
} from './inference-endpoint.js';
import { InferenceSupervisor } from './supervisor.js';

const KEY = 'endpoint-test-key-0123456789';
let supervisor: InferenceSupervisor;
let endpoint: InferenceEndpoint;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-endpoint-'));
  supervisor = new InferenceSupervisor({
    env: { ...process.env, OWNVOICE_BASE_MODEL: HOUSE_MODEL_PATH, OWNVOICE_INFERENCE_KEY: KEY },
    log: { info: () => {}, warn: () => {} },
  });
  endpoint = new InferenceEndpoint({ id: 'test', url: await supervisor.url(), apiKey: KEY });
}, 60_000);
afterAll(async () => {
  await supervisor?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('InferenceEndpoint', () => {
  it('lists the base model, counts tokens, and streams a completion with how it ended', async () => {
    expect((await endpoint.models()).base).toBe('ownvoice-tiny');
    const short = await endpoint.countTokens('The library opened');
    expect(short).toBeGreaterThan(0);
    expect(await endpoint.countTokens('The library opened a new reading room last spring.')).toBeGreaterThan(short);
    const deltas: string[] = [];
    let end: GenerationEnd | undefined;
    const text = await endpoint.complete('The library opened', {
      maxTokens: 12,
      ignoreEos: true,
      onChunk: (d) => deltas.push(d),
      onFinish: (e) => {
        end = e;
      },
    });
    expect(text.length).toBeGreaterThan(0);
    expect(deltas.join('')).toBe(text);
    expect(end).toEqual({ reason: 'length', tokens: 12 });
  });

  it('fits a chat longer than the model can read into its context, and answers it', async () => {
    const long = 'The fair opens on Saturday and the stalls sell bread, honey and wool. '.repeat(200);
    const answer = await endpoint.chat(
      [
        { role: 'system', content: 'You write plain prose.' },
        { role: 'user', content: `Summarise this.\n${long}` },
      ],
      { maxTokens: 16 },
    );
    expect(typeof answer).toBe('string');
  });

  it('refuses a chat that leaves the answer no room however much is cut', async () => {
    const messages = Array.from({ length: 40 }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      content: `Turn ${i}: the stalls sell bread, honey and wool all day long.`,
    }));
    await expect(
      endpoint.chat([...messages, { role: 'user', content: 'And then?' }], { maxTokens: 16 }),
    ).rejects.toThrow(PromptTooLongError);
  });

  it('answers a Voice that is not loaded there with VoiceNotAwakeError', async () => {
    await expect(endpoint.complete('Hello', { voiceId: 'no-such-voice', maxTokens: 2 })).rejects.toThrow(
      VoiceNotAwakeError,
    );
  });

  it('refuses an adapter file that is missing or no adapter, and unloads what is not loaded quietly', async () => {
    await expect(endpoint.loadAdapter('missing', path.join(dir, 'missing.gguf'))).rejects.toThrow(AdapterRejectedError);
    const junk = path.join(dir, 'junk.gguf');
    writeFileSync(junk, 'not a GGUF file');
    await expect(endpoint.loadAdapter('junk', junk)).rejects.toThrow(AdapterRejectedError);
    await expect(endpoint.unloadAdapter('never-loaded')).resolves.toBeUndefined();
  });

  it('takes an endpoint that does not answer as unavailable', async () => {
    const gone = new InferenceEndpoint({ id: 'gone', url: 'http://127.0.0.1:9', apiKey: KEY, timeoutMs: 2_000 });
    expect(await gone.healthy(1_000)).toBe(false);
    await expect(gone.complete('Hello', { maxTokens: 2 })).rejects.toThrow(InferenceUnavailableError);
  });
});
