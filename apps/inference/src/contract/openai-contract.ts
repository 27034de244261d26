// The contract of an inference endpoint, as vLLM's OpenAI-compatible server with runtime LoRA
// updates defines it: the fields of models, completions and chat completions, the streaming
// format, the sampling settings OwnVoice relies on (stop, max_tokens, ignore_eos), token counts
// (/tokenize), the errors (an
// unknown model, a bad body, LoRA loading refusals, a missing bearer key), loading and unloading
// adapters, and that a client hanging up stops its generation. The same cases run against our
// server (inference.contract.test.ts) and, pointed at one by environment variables, against a
// vLLM server; so the API server's client can take either.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { type ContractTarget, client, metricValue } from './http-client.js';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = Record<string, any>;

const PROMPT = 'It was a bright cold day in April, and';
const MESSAGES = [
  { role: 'system', content: 'You write plain prose.' },
  { role: 'user', content: 'Describe a cold morning.' },
];

/** vLLM's ErrorResponse, with `code` the HTTP status. */
function expectError(answer: { status: number; body: unknown }, status: number, type?: string) {
  expect(answer.status).toBe(status);
  const error = (answer.body as Json).error;
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  expect(typeof error.type).toBe('string');
  expect(error.code).toBe(status);
  expect('param' in error).toBe(true);
  if (type) expect(error.type).toBe(type);
  return error as { message: string; type: string; param: string | null; code: number };
}

function expectUsage(usage: Json) {
  for (const field of ['prompt_tokens', 'completion_tokens', 'total_tokens']) {
    expect(Number.isInteger(usage[field]), field).toBe(true);
  }
  expect(usage.prompt_tokens).toBeGreaterThan(0);
  expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
}

/** The parsed chunks of a finished stream, after checking its framing: JSON events, then `[DONE]` last. */
function chunksOf(events: string[]): Json[] {
  expect(events.at(-1)).toBe('[DONE]');
  const chunks = events.slice(0, -1).map((data) => JSON.parse(data) as Json);
  expect(events.slice(0, -1)).not.toContain('[DONE]');
  return chunks;
}

let unique = 0;
const adapterName = (what: string) => `contract-${what}-${process.pid}-${Date.now().toString(36)}-${unique++}`;

export function describeContract(name: string, target: () => ContractTarget): void {
  const http = () => client(target());
  const baseModel = async (): Promise<Json> => {
    const { body } = await http().get('/v1/models');
    return (body as Json).data.find((m: Json) => m.parent == null);
  };
  const load = (lora_name: string, lora_path = target().adapterPath) =>
    http().post('/v1/load_lora_adapter', { lora_name, lora_path });
  const unload = (lora_name: string) => http().post('/v1/unload_lora_adapter', { lora_name });

  describe(`${name}: the OpenAI-compatible contract (as vLLM serves LoRA adapters)`, () => {
    describe('GET /v1/models', () => {
      it('lists the base model as a model card', async () => {
        const { status, body } = await http().get('/v1/models');
        expect(status).toBe(200);
        const list = body as Json;
        expect(list.object).toBe('list');
        const base = list.data.find((m: Json) => m.parent == null);
        expect(base).toMatchObject({ object: 'model', parent: null });
        expect(typeof base.id).toBe('string');
        expect(Number.isInteger(base.created)).toBe(true);
        expect(typeof base.owned_by).toBe('string');
        expect(typeof base.root).toBe('string');
        expect(base.max_model_len).toBeGreaterThan(0);
      });
    });

    describe('POST /v1/completions', () => {
      it('answers a text_completion with its text, finish_reason and usage', async () => {
        const model = (await baseModel()).id;
        const { status, body } = await http().post('/v1/completions', { model, prompt: PROMPT, max_tokens: 8 });
        expect(status).toBe(200);
        const answer = body as Json;
        expect(answer.id).toMatch(/^cmpl-/);
        expect(answer).toMatchObject({ object: 'text_completion', model });
        expect(Number.isInteger(answer.created)).toBe(true);
        expect(answer.choices).toHaveLength(1);
        expect(answer.choices[0].index).toBe(0);
        expect(typeof answer.choices[0].text).toBe('string');
        expect(['stop', 'length']).toContain(answer.choices[0].finish_reason);
        expectUsage(answer.usage);
        expect(answer.usage.completion_tokens).toBeLessThanOrEqual(8);
      });

      it('accepts and ignores fields it does not know', async () => {
        const model = (await baseModel()).id;
        const answer = await http().post('/v1/completions', {
          model,
          prompt: PROMPT,
          max_tokens: 4,
          an_unknown_field: { nested: true },
        });
        expect(answer.status).toBe(200);
      });

      it('stops after max_tokens with finish_reason "length"', async () => {
        const model = (await baseModel()).id;
        const { body } = await http().post('/v1/completions', {
          model,
          prompt: PROMPT,
          max_tokens: 5,
          ignore_eos: true,
        });
        const answer = body as Json;
        expect(answer.choices[0].finish_reason).toBe('length');
        expect(answer.usage.completion_tokens).toBe(5);
      });

      it('ends before a stop string, without it, with finish_reason "stop"', async () => {
        const model = (await baseModel()).id;
        const settings = { model, prompt: PROMPT, max_tokens: 24, temperature: 0, ignore_eos: true };
        const free = ((await http().post('/v1/completions', settings)).body as Json).choices[0].text as string;
        expect(free.length).toBeGreaterThan(12);
        const stop = free.slice(8, 11);
        for (const given of [stop, [stop]]) {
          const { body } = await http().post('/v1/completions', { ...settings, stop: given });
          const choice = (body as Json).choices[0];
          expect(choice.text).toBe(free.slice(0, free.indexOf(stop)));
          expect(choice.finish_reason).toBe('stop');
        }
      });

      it('streams text_completion chunks, finish_reason on the last, then [DONE]', async () => {
        const model = (await baseModel()).id;
        const stream = await http().stream('/v1/completions', {
          model,
          prompt: PROMPT,
          max_tokens: 6,
          ignore_eos: true,
          stream: true,
          stream_options: { include_usage: true },
        });
        expect(stream.status).toBe(200);
        expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
        const chunks = chunksOf(await stream.rest());
        for (const block of stream.blocks) expect(block).toMatch(/^data: /);
        const usageChunk = chunks.pop() as Json;
        expect(usageChunk.choices).toEqual([]);
        expectUsage(usageChunk.usage);
        expect(usageChunk.usage.completion_tokens).toBe(6);
        expect(chunks.length).toBeGreaterThan(1);
        for (const chunk of chunks) {
          expect(chunk.id).toBe(chunks[0]?.id);
          expect(chunk.id).toMatch(/^cmpl-/);
          expect(chunk).toMatchObject({ object: 'text_completion', model });
          expect(typeof chunk.choices[0].text).toBe('string');
        }
        expect(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason == null)).toBe(true);
        expect(chunks.at(-1)?.choices[0].finish_reason).toBe('length');
      });

      it('refuses a prompt and max_tokens that do not fit the context with a 400', async () => {
        const base = await baseModel();
        const answer = await http().post('/v1/completions', {
          model: base.id,
          prompt: PROMPT,
          max_tokens: base.max_model_len + 1,
        });
        expectError(answer, 400);
      });
    });

    describe('POST /tokenize', () => {
      it('counts the tokens of a prompt, with the beginning-of-text token only when asked', async () => {
        const base = await baseModel();
        const plain = await http().post('/tokenize', { model: base.id, prompt: PROMPT, add_special_tokens: false });
        expect(plain.status).toBe(200);
        const body = plain.body as Json;
        expect(Number.isInteger(body.count)).toBe(true);
        expect(body.count).toBeGreaterThan(0);
        expect(body.tokens).toHaveLength(body.count);
        expect(body.max_model_len).toBe(base.max_model_len);
        const special = (await http().post('/tokenize', { model: base.id, prompt: PROMPT })).body as Json;
        expect(special.count - body.count).toBeGreaterThanOrEqual(0);
        expect(special.count - body.count).toBeLessThanOrEqual(1);
        const longer = await http().post('/tokenize', {
          model: base.id,
          prompt: `${PROMPT} ${PROMPT}`,
          add_special_tokens: false,
        });
        expect((longer.body as Json).count).toBeGreaterThan(body.count);
      });

      it('counts the prompt a chat makes, which grows with its messages', async () => {
        const base = await baseModel();
        const short = (await http().post('/tokenize', { model: base.id, messages: MESSAGES })).body as Json;
        expect(short.count).toBeGreaterThan(0);
        expect(short.tokens).toHaveLength(short.count);
        const longer = [...MESSAGES.slice(0, -1), { role: 'user', content: `${MESSAGES[1]?.content} ${PROMPT}` }];
        expect(
          ((await http().post('/tokenize', { model: base.id, messages: longer })).body as Json).count,
        ).toBeGreaterThan(short.count);
      });

      it('answers a model it does not serve with a 404', async () => {
        expectError(await http().post('/tokenize', { model: 'no-such-model', prompt: PROMPT }), 404);
      });
    });

    describe('POST /v1/chat/completions', () => {
      it('answers a chat.completion with an assistant message, finish_reason and usage', async () => {
        const model = (await baseModel()).id;
        const { status, body } = await http().post('/v1/chat/completions', {
          model,
          messages: MESSAGES,
          max_tokens: 8,
        });
        expect(status).toBe(200);
        const answer = body as Json;
        expect(answer.id).toMatch(/^chatcmpl-/);
        expect(answer).toMatchObject({ object: 'chat.completion', model });
        expect(answer.choices[0].index).toBe(0);
        expect(answer.choices[0].message.role).toBe('assistant');
        expect(typeof answer.choices[0].message.content).toBe('string');
        expect(['stop', 'length']).toContain(answer.choices[0].finish_reason);
        expectUsage(answer.usage);
      });

      it('streams chat.completion.chunk deltas: the role first, finish_reason last, then [DONE]', async () => {
        const model = (await baseModel()).id;
        const stream = await http().stream('/v1/chat/completions', {
          model,
          messages: MESSAGES,
          max_tokens: 6,
          ignore_eos: true,
          stream: true,
        });
        expect(stream.status).toBe(200);
        const chunks = chunksOf(await stream.rest());
        expect(chunks.length).toBeGreaterThan(2);
        for (const chunk of chunks) {
          expect(chunk.id).toMatch(/^chatcmpl-/);
          expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model });
        }
        expect(chunks[0]?.choices[0].delta.role).toBe('assistant');
        expect(chunks.slice(1).every((c) => c.choices[0].delta.role === undefined)).toBe(true);
        expect(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason == null)).toBe(true);
        expect(chunks.at(-1)?.choices[0].finish_reason).toBe('length');
        const text = chunks.map((c) => c.choices[0].delta.content ?? '').join('');
        expect(text.length).toBeGreaterThan(0);
      });
    });

    describe('errors', () => {
      it('answers a model it does not serve with a 404', async () => {
        for (const [path, body] of [
          ['/v1/completions', { model: 'no-such-model', prompt: PROMPT, max_tokens: 4 }],
          ['/v1/chat/completions', { model: 'no-such-model', messages: MESSAGES, max_tokens: 4 }],
        ] as const) {
          const error = expectError(await http().post(path, body), 404, 'NotFoundError');
          expect(error.message).toBe('The model `no-such-model` does not exist.');
        }
      });

      it('answers a malformed or mistyped body with a 400', async () => {
        const model = (await baseModel()).id;
        expectError(await http().post('/v1/completions', { model, prompt: PROMPT, max_tokens: 'many' }), 400);
        expectError(await http().post('/v1/completions', { model, max_tokens: 4 }), 400);
        expectError(await http().post('/v1/chat/completions', { model, messages: 'hello' }), 400);
        expectError(await http().post('/v1/completions', { model, prompt: PROMPT, temperature: -1 }), 400);
        const malformed = await http().post('/v1/completions', undefined, {
          raw: '{"prompt": ',
          headers: { 'content-type': 'application/json' },
        });
        expectError(malformed, 400);
      });

      it('enforces the bearer key on /v1 when the server has one', async ({ skip }) => {
        const { key } = target();
        if (!key) return skip('the server takes requests without a key');
        const bare = { ...target(), key: undefined };
        const wrong: Record<string, string>[] = [{}, { authorization: `Bearer ${key}x` }, { authorization: key }];
        for (const headers of wrong) {
          for (const answer of [
            await client(bare).get('/v1/models', { headers }),
            await client(bare).post('/v1/completions', { prompt: PROMPT, max_tokens: 2 }, { headers }),
          ]) {
            expect(answer.status).toBe(401);
            expect((answer.body as Json).error).toBeTruthy();
          }
        }
        expect((await client(bare).get('/v1/models', { headers: { authorization: `bearer ${key}` } })).status).toBe(
          200,
        );
      });

      it('asks for the key however the path is written: percent-encoded, doubled slashes, a query', async ({
        skip,
      }) => {
        if (!target().key) return skip('the server takes requests without a key');
        const bare = { ...target(), key: undefined };
        for (const path of ['/%761/models', '/v%31/models', '/%76%31/models', '/v1/%6dodels', '/v1/models?x=/health']) {
          const answer = await client(bare).get(path);
          expect([401, 404], path).toContain(answer.status);
          expect(answer.status === 200, path).toBe(false);
        }
      });
    });

    describe('runtime LoRA adapters', () => {
      it('loads an adapter, serves it as a model, unloads it, and then refuses it with a 404', async () => {
        const base = await baseModel();
        const lora = adapterName('cycle');
        const loaded = await load(lora);
        expect(loaded.status).toBe(200);
        expect(loaded.text).toContain(lora);

        const listed = ((await http().get('/v1/models')).body as Json).data.find((m: Json) => m.id === lora);
        expect(listed).toMatchObject({ id: lora, object: 'model', root: target().adapterPath, parent: base.id });

        const completion = await http().post('/v1/completions', { model: lora, prompt: PROMPT, max_tokens: 6 });
        expect(completion.status).toBe(200);
        expect((completion.body as Json).model).toBe(lora);
        const chat = await http().post('/v1/chat/completions', { model: lora, messages: MESSAGES, max_tokens: 6 });
        expect(chat.status).toBe(200);
        expect((chat.body as Json).model).toBe(lora);

        const unloaded = await unload(lora);
        expect(unloaded.status).toBe(200);
        expect(unloaded.text).toContain(lora);
        const after = ((await http().get('/v1/models')).body as Json).data.map((m: Json) => m.id);
        expect(after).not.toContain(lora);
        const refused = await http().post('/v1/completions', { model: lora, prompt: PROMPT, max_tokens: 4 });
        expectError(refused, 404, 'NotFoundError');
      });

      it('refuses to load a name twice (400) and to unload an unknown name (404)', async () => {
        const lora = adapterName('twice');
        expect((await load(lora)).status).toBe(200);
        try {
          const again = expectError(await load(lora), 400);
          expect(again.message).toContain('already been loaded');
        } finally {
          await unload(lora);
        }
        expectError(await unload(adapterName('unknown')), 404, 'NotFoundError');
      });

      it('serves one adapter file under two names; unloading one leaves the other writing', async () => {
        const one = adapterName('shared-one');
        const two = adapterName('shared-two');
        expect((await load(one)).status).toBe(200);
        expect((await load(two)).status).toBe(200);
        try {
          const write = () =>
            http().post('/v1/completions', { model: two, prompt: PROMPT, max_tokens: 6, temperature: 0 });
          const before = await write();
          expect(before.status).toBe(200);
          expect((await unload(one)).status).toBe(200);
          const after = await write();
          expect(after.status).toBe(200);
          expect((after.body as Json).choices[0].text).toBe((before.body as Json).choices[0].text);
        } finally {
          await unload(two);
        }
        // And the server is still there to answer.
        expect((await http().get('/v1/models')).status).toBe(200);
      });

      it('answers a path with no adapter with a 404, and a file that is no adapter with an error', async () => {
        const missing = `${target().adapterPath}.missing-${Date.now()}`;
        const error = expectError(await load(adapterName('missing'), missing), 404, 'NotFoundError');
        expect(error.message).toContain('No adapter found');
        const invalid = target().invalidAdapterPath;
        if (invalid) {
          const answer = await load(adapterName('invalid'), invalid);
          // vLLM answers 400 for an adapter it cannot load (its newest releases 500).
          expect([400, 500]).toContain(answer.status);
          expectError(answer, answer.status);
        }
      });

      it('ends a stream on an adapter unloaded under it, never leaving it hanging', async () => {
        const base = await baseModel();
        const lora = adapterName('inflight');
        expect((await load(lora)).status).toBe(200);
        const stream = await http().stream('/v1/completions', {
          model: lora,
          prompt: PROMPT,
          max_tokens: base.max_model_len - 64,
          ignore_eos: true,
          stream: true,
        });
        expect(stream.status).toBe(200);
        expect(JSON.parse((await stream.next()) ?? 'null').choices).toBeTruthy();
        expect((await unload(lora)).status).toBe(200);
        const events = await stream.rest();
        expect(events.at(-1)).toBe('[DONE]');
        const last = JSON.parse(events.at(-2) ?? 'null') as Json;
        if (target().unloadStopsStreams ?? true) {
          expect(last.error).toBeTruthy();
          expectError({ status: last.error.code, body: last }, last.error.code);
        } else {
          expect(last.error ?? last.choices[0].finish_reason).toBeTruthy();
        }
      });
    });

    describe('client hang-up', () => {
      // Read from vLLM's own metrics: generations under way, and those that ended aborted.
      const aborted = async () =>
        metricValue((await http().get('/metrics')).text, 'vllm:request_success_total', { finished_reason: 'abort' });
      const running = async () => metricValue((await http().get('/metrics')).text, 'vllm:num_requests_running');
      const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

      it('stops the generation of a stream whose client went away', async () => {
        const base = await baseModel();
        const before = await aborted();
        const stream = await http().stream('/v1/completions', {
          model: base.id,
          prompt: PROMPT,
          max_tokens: base.max_model_len - 64,
          ignore_eos: true,
          stream: true,
        });
        await stream.next();
        expect(await running()).toBeGreaterThan(0);
        stream.hangUp();
        // Left alone it would end only after max_tokens; ended as aborted, the hang-up stopped it.
        while ((await running()) > 0) await pause();
        expect(await aborted()).toBe(before + 1);
      });

      it('stops the generation of a plain request whose client went away', async () => {
        const base = await baseModel();
        const before = await aborted();
        const controller = new AbortController();
        const request = fetch(`${target().baseUrl}/v1/completions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(target().key ? { authorization: `Bearer ${target().key}` } : {}),
          },
          body: JSON.stringify({
            model: base.id,
            prompt: PROMPT,
            max_tokens: base.max_model_len - 64,
            ignore_eos: true,
          }),
          signal: controller.signal,
        }).catch(() => undefined);
        while ((await running()) === 0) await pause();
        controller.abort();
        await request;
        while ((await running()) > 0) await pause();
        expect(await aborted()).toBe(before + 1);
      });
    });

    describe('the openai npm SDK (what the API server uses)', () => {
      const sdk = () =>
        new OpenAI({ baseURL: `${target().baseUrl}/v1`, apiKey: target().key ?? 'none', maxRetries: 0 });

      it('lists models and streams a completion', async () => {
        const models = await sdk().models.list();
        const model = models.data.find((m) => (m as unknown as Json).parent == null)?.id as string;
        expect(model).toBeTruthy();
        const stream = await sdk().completions.create({ model, prompt: PROMPT, max_tokens: 6, stream: true });
        let text = '';
        let finish: string | null = null;
        for await (const chunk of stream) {
          text += chunk.choices[0]?.text ?? '';
          finish = chunk.choices[0]?.finish_reason ?? finish;
        }
        expect(text.length).toBeGreaterThan(0);
        expect(['stop', 'length']).toContain(finish);
      });

      it('answers chat completions, plain and streamed', async () => {
        const model = (await baseModel()).id;
        const messages = MESSAGES as OpenAI.ChatCompletionMessageParam[];
        const whole = await sdk().chat.completions.create({ model, messages, max_tokens: 6 });
        expect(whole.choices[0]?.message.role).toBe('assistant');
        expect(typeof whole.choices[0]?.message.content).toBe('string');
        const stream = await sdk().chat.completions.create({ model, messages, max_tokens: 6, stream: true });
        const roles: string[] = [];
        let finish: string | null = null;
        for await (const chunk of stream) {
          if (chunk.choices[0]?.delta.role) roles.push(chunk.choices[0].delta.role);
          finish = chunk.choices[0]?.finish_reason ?? finish;
        }
        expect(roles).toEqual(['assistant']);
        expect(['stop', 'length']).toContain(finish);
      });

      it('raises the SDK NotFoundError for an unknown model', async () => {
        const call = sdk().completions.create({ model: 'no-such-model', prompt: PROMPT, max_tokens: 2 });
        await expect(call).rejects.toBeInstanceOf(OpenAI.NotFoundError);
        await expect(call).rejects.toMatchObject({ status: 404 });
      });
    });
  });
}
