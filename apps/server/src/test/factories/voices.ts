// A Voice row stored directly, with an adapter file in its folder: for tests that need a ready
// Voice to list, read or refuse, not one that runs (test/quick-voice.ts trains those).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type VoiceRow, voices } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { inserted, type RowTarget } from './rows.js';

export async function createVoice(
  target: Pick<RowTarget, 'database'> & { config: { dataDir: string } },
  userId: string,
  patch: Partial<VoiceRow> = {},
): Promise<VoiceRow> {
  const id = newId();
  const folder = path.join(target.config.dataDir, 'voices', id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'voice-v1.gguf'), 'adapter bytes');
  return inserted(
    await target.database.db
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
      .returning(),
    'voices',
  );
}
