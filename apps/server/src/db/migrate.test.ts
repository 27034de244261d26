// Migrations change a database that already holds people's data: what a migration renames or
// moves must arrive intact. Each test migrates a copy of the folder up to the step before its
// migration, writes rows as the older schema had them, then applies the rest.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-database.js';
import type { DatabaseHandle } from './client.js';
import { defaultMigrationsFolder, runMigrations } from './migrate.js';

interface Journal {
  entries: { idx: number; tag: string }[];
}

/** A copy of the migrations folder that stops before the migration tagged `tag`. */
function migrationsBefore(tag: string): { folder: string; remove(): void } {
  const folder = mkdtempSync(path.join(tmpdir(), 'ownvoice-migrations-'));
  cpSync(defaultMigrationsFolder(), folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as Journal;
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`no migration tagged ${tag}`);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

describe('migrations keep data', () => {
  let database: DatabaseHandle | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    await database?.close();
    database = undefined;
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it("0019 renames the users' payment ids to the provider's and keeps their values", async () => {
    const before = migrationsBefore('0019_provider_ids');
    cleanups.push(before.remove);
    database = await openTestDatabase({ migrationsFolder: before.folder });
    await database.db.execute(sql`
      insert into users (id, username, email, password_hash, stripe_customer_id, stripe_subscription_id)
      values ('u1', 'ada', 'ada@example.com', 'x', 'cus_kept', 'sub_kept'), ('u2', 'bo', 'bo@example.com', 'x', null, null)`);

    await runMigrations(database);

    // Both drivers answer raw SQL with the rows under `rows`.
    const { rows } = (await database.db.execute(
      sql`select id, provider_customer_id, provider_subscription_id from users order by id`,
    )) as unknown as { rows: unknown[] };
    expect(rows).toEqual([
      { id: 'u1', provider_customer_id: 'cus_kept', provider_subscription_id: 'sub_kept' },
      { id: 'u2', provider_customer_id: null, provider_subscription_id: null },
    ]);
  });

  it('0020 marks Voices trained before it as on an unknown base model, and leaves untrained ones to their training', async () => {
    const before = migrationsBefore('0020_voice_base_model');
    cleanups.push(before.remove);
    database = await openTestDatabase({ migrationsFolder: before.folder });
    await database.db.execute(sql`
      insert into users (id, username, email, password_hash) values ('u1', 'ada', 'ada@example.com', 'x')`);
    await database.db.execute(sql`
      insert into voices (id, user_id, name, status, adapter_key, forked_from_id) values
        ('v1', 'u1', 'Trained', 'ready', 'voices/v1/adapter/voice-1.gguf', null),
        ('v2', 'u1', 'Awake', 'active', 'voices/v2/adapter/voice-2.gguf', null),
        ('v3', 'u1', 'Fork', 'ready', 'voices/v3/adapter/voice-1.gguf', 'v1'),
        ('v4', 'u1', 'Waiting', 'pending', null, null),
        ('v5', 'u1', 'Failed', 'failed', null, null)`);

    await runMigrations(database);

    const { rows } = (await database.db.execute(
      sql`select id, base_model_state, base_model_name, base_model_file, base_model_sha256, base_model_bytes
          from voices order by id`,
    )) as unknown as { rows: Record<string, unknown>[] };
    const unknown = { base_model_state: 'unknown', base_model_name: null, base_model_file: null };
    const none = { base_model_state: null, base_model_name: null, base_model_file: null };
    const noHash = { base_model_sha256: null, base_model_bytes: null };
    expect(rows).toEqual([
      { id: 'v1', ...unknown, ...noHash },
      { id: 'v2', ...unknown, ...noHash },
      { id: 'v3', ...unknown, ...noHash },
      { id: 'v4', ...none, ...noHash },
      { id: 'v5', ...none, ...noHash },
    ]);
  });
});
