// Runs the OpenAI-compatible contract (openai-contract.ts) against our inference server, started
// here on a loopback port over the house model, with a bearer key and a random GGUF adapter.
//
// To run the same suite against another server (a vLLM started with --enable-lora and
// VLLM_ALLOW_RUNTIME_LORA_UPDATING=True), with no code change:
//   OWNVOICE_CONTRACT_URL=http://127.0.0.1:8000      the server, without /v1
//   OWNVOICE_CONTRACT_KEY=...                         its --api-key, if it has one
//   OWNVOICE_CONTRACT_ADAPTER=/path/to/peft-adapter   an adapter it can load
//   OWNVOICE_CONTRACT_INVALID_ADAPTER=/path/to/file   optional: a file that is no adapter
//   OWNVOICE_CONTRACT_UNLOAD_STOPS_STREAMS=0          optional: accept streams that finish after an unload
//   npx vitest run --project inference src/contract
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HOUSE_MODEL_PATH, VoiceEngine } from '@ownvoice/engine';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { writeRandomAdapter } from '../test/adapter-fixture.js';
import type { ContractTarget } from './http-client.js';
import { describeContract } from './openai-contract.js';

const external = process.env.OWNVOICE_CONTRACT_URL;

if (external) {
  describeContract(`the server at ${external}`, () => {
    const adapterPath = process.env.OWNVOICE_CONTRACT_ADAPTER;
    if (!adapterPath) throw new Error('OWNVOICE_CONTRACT_ADAPTER must name an adapter the server can load');
    return {
      baseUrl: external.replace(/\/+$/, ''),
      key: process.env.OWNVOICE_CONTRACT_KEY,
      adapterPath,
      invalidAdapterPath: process.env.OWNVOICE_CONTRACT_INVALID_ADAPTER,
      unloadStopsStreams: process.env.OWNVOICE_CONTRACT_UNLOAD_STOPS_STREAMS !== '0',
    };
  });
} else {
  const KEY = 'contract-test-key-0123456789abcdef';
  let dir: string;
  let engine: VoiceEngine;
  let app: FastifyInstance;
  let target: ContractTarget;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-inference-'));
    const adapterPath = writeRandomAdapter(path.join(dir, 'voice.gguf'));
    const invalidAdapterPath = path.join(dir, 'not-an-adapter.gguf');
    writeFileSync(invalidAdapterPath, 'not a GGUF file');
    engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
    app = await buildApp({ engine, baseModel: { name: 'ownvoice-tiny', path: HOUSE_MODEL_PATH }, apiKey: KEY });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the server did not listen on a port');
    target = { baseUrl: `http://127.0.0.1:${address.port}`, key: KEY, adapterPath, invalidAdapterPath };
  });
  afterAll(async () => {
    await app?.close();
    await engine?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  describeContract('our inference server', () => target);

  describe('our inference server, beyond the contract', () => {
    it('takes requests without a key when started without one (loopback)', async () => {
      const open = await buildApp({ engine, baseModel: { name: 'ownvoice-tiny', path: HOUSE_MODEL_PATH } });
      try {
        expect((await open.inject({ method: 'GET', url: '/v1/models' })).statusCode).toBe(200);
      } finally {
        await open.close();
      }
    });

    it("loads a name in place only from its own folder: another Voice's file is refused", async () => {
      const auth = { authorization: `Bearer ${KEY}` };
      const load = (lora_path: string) =>
        app.inject({
          method: 'POST',
          url: '/v1/load_lora_adapter',
          headers: auth,
          payload: { lora_name: 'victim', lora_path, load_inplace: true },
        });
      const write = async () =>
        (
          await app.inject({
            method: 'POST',
            url: '/v1/completions',
            headers: auth,
            // Greedy, so that the same weights write the same text.
            payload: {
              model: 'victim',
              prompt: 'It was a bright cold day in April, and',
              max_tokens: 8,
              temperature: 0,
            },
          })
        ).json().choices[0].text as string;
      const victimDir = path.join(dir, 'victim');
      const otherDir = path.join(dir, 'other');
      mkdirSync(victimDir);
      mkdirSync(otherDir);
      const own = writeRandomAdapter(path.join(victimDir, 'adapter-1.gguf'), { seed: 7 });
      const retrained = writeRandomAdapter(path.join(victimDir, 'adapter-2.gguf'), { seed: 8 });
      const someoneElses = writeRandomAdapter(path.join(otherDir, 'adapter-1.gguf'), { seed: 9 });
      try {
        expect((await load(own)).statusCode).toBe(200);
        const mine = await write();
        const refused = await load(someoneElses);
        expect(refused.statusCode).toBe(400);
        expect(refused.json().error.message).toContain('only from the folder it was first loaded from');
        // Still the victim's own weights, and still listed as its own file.
        expect(await write()).toBe(mine);
        // Its own folder's new weights are taken.
        expect((await load(retrained)).statusCode).toBe(200);
        expect(await write()).not.toBe(mine);
      } finally {
        await app.inject({
          method: 'POST',
          url: '/v1/unload_lora_adapter',
          headers: auth,
          payload: { lora_name: 'victim' },
        });
      }
    });

    it('refuses a body over the limit with a 413 in the error shape', async () => {
      const answer = await app.inject({
        method: 'POST',
        url: '/v1/completions',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ prompt: 'x'.repeat(1024 * 1024 + 1) }),
      });
      expect(answer.statusCode).toBe(413);
      expect(answer.json().error).toMatchObject({ code: 413 });
    });

    it('names the problem of a file that is no adapter, and keeps serving', async () => {
      const answer = await app.inject({
        method: 'POST',
        url: '/v1/load_lora_adapter',
        headers: { authorization: `Bearer ${KEY}` },
        payload: { lora_name: 'broken', lora_path: target.invalidAdapterPath },
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error).toMatchObject({ type: 'BadRequestError', code: 400 });
      expect(answer.json().error.message).toMatch(/GGUF|truncated|not a/i);
      const models = await app.inject({
        method: 'GET',
        url: '/v1/models',
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(models.json().data.map((m: { id: string }) => m.id)).not.toContain('broken');
    });
  });
}
