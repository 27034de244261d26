// The inference server as the API server runs it, for tests that probe its routes: the house
// model, one random adapter loaded as 'owned', and a bearer key. Both the authorization matrix and
// the fuzz test start from exactly this.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HOUSE_MODEL_PATH, VoiceEngine } from '@ownvoice/engine';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { writeRandomAdapter } from './adapter-fixture.js';

export interface KeyedApp {
  app: FastifyInstance;
  /** The adapter file loaded as 'owned' (a valid file an intruder could name too). */
  adapterPath: string;
  /** The ids /v1/models serves now, sorted. */
  served: () => Promise<string[]>;
  close: () => Promise<void>;
}

export async function startKeyedApp(key: string): Promise<KeyedApp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-keyed-'));
  const adapterPath = writeRandomAdapter(path.join(dir, 'voice.gguf'));
  const engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
  const app = await buildApp({ engine, baseModel: { name: 'ownvoice-tiny', path: HOUSE_MODEL_PATH }, apiKey: key });
  await app.ready();
  const authorization = `Bearer ${key}`;
  const loaded = await app.inject({
    method: 'POST',
    url: '/v1/load_lora_adapter',
    headers: { authorization },
    payload: { lora_name: 'owned', lora_path: adapterPath },
  });
  if (loaded.statusCode !== 200) throw new Error(`loading the test adapter answered ${loaded.statusCode}`);
  return {
    app,
    adapterPath,
    served: async () =>
      (await app.inject({ method: 'GET', url: '/v1/models', headers: { authorization } }))
        .json()
        .data.map((m: { id: string }) => m.id)
        .sort(),
    close: async () => {
      await app.close();
      await engine.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
