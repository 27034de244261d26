// A Voice row stored directly, with an adapter file in its folder: for tests that need a ready
// Voice to list, read or refuse, not one that runs (quick-voice.ts trains those).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type VoiceRow, voices } from '../db/schema.js';
import { newId } from '../ids.js';
import type { TestContext } from './test-app.js';

export async function addVoiceRow(ctx: TestContext, userId: string, patch: Partial<VoiceRow> = {}): Promise<VoiceRow> {
  const id = newId();
  const folder = path.join(ctx.config.dataDir, 'voices', id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'voice-v1.gguf'), 'adapter bytes');
  const [row] = await ctx.database.db
    .insert(voices)
    .values({
      id,
      userId,
      name: 'Essays',
      status: 'ready',
      progress: 100,
      adapterKey: `voices/${id}/voice-v1.gguf`,
      ...patch,
    })
    .returning();
  if (!row) throw new Error('no Voice inserted');
  return row;
}
