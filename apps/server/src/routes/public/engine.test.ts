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

  it('reports the house model standing in, and why, when the default cannot be fetched', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-engine-status-'));
    const baseModel = new BaseModelService();
    const logs: string[] = [];
    await baseModel.start({
      spec: undefined,
      dataDir,
      defaultSpec: 'http://127.0.0.1:9/unreachable.gguf',
      log: (m) => logs.push(m),
    });
    const ctx = await createTestContext({}, { baseModel });
    try {
      const status = (await ctx.client().get('/api/public/engine')).json();
      expect(status).toMatchObject({ state: 'ready', model: 'ownvoice-tiny.gguf', source: 'house' });
      expect(status.fallbackReason).toMatch(/Could not download/);
      expect(logs.join('\n')).toMatch(/using the tiny house model/);
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
