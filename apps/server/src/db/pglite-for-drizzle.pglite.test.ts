// The embedded database's client as drizzle uses it: queries run as named statements kept per SQL
// text, with drizzle's parsers set once on the client, and answer exactly as PGlite's own query.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STATEMENTS, PGliteForDrizzle } from './pglite-for-drizzle.js';

let db: PGliteForDrizzle;
let plain: PGlite;
const SETUP = `
  create table t (id text primary key, n integer, at timestamptz, data jsonb, tags text[]);
  insert into t values ('a', 1, '2026-01-15 12:00:00+00', '{"k": [1, 2]}', '{x,y}'), ('b', null, null, null, null);`;
/** What drizzle passes with each query: timestamps, dates and intervals kept as text. */
const keep = (value: string) => value;
const DRIZZLE_OPTIONS = { rowMode: 'array' as const, parsers: { 1184: keep, 1114: keep, 1082: keep, 1186: keep } };

const statements = async () =>
  (await plainQuery(db, 'select count(*)::int as n from pg_prepared_statements')).rows[0] as { n: number };
/** PGlite's own query on the same client, for looking at the client's state. */
const plainQuery = (client: PGlite, sql: string) => PGlite.prototype.query.call(client, sql);

beforeAll(async () => {
  db = new PGliteForDrizzle();
  plain = new PGlite();
  await db.exec(SETUP);
  await plain.exec(SETUP);
});
afterAll(async () => {
  await db.close();
  await plain.close();
});

describe('PGliteForDrizzle', () => {
  it("answers as PGlite's own query, with parameters and drizzle's parsers", async () => {
    const sql = 'select * from t where id = any($1) or n = $2 order by id';
    const params = [['a', 'b'], 5];
    const mine = await db.query(sql, params, DRIZZLE_OPTIONS);
    const theirs = await plain.query(sql, params, DRIZZLE_OPTIONS);
    expect(mine).toEqual(theirs);
    // The timestamp stays text, as drizzle asked; jsonb and arrays are parsed as PGlite parses them.
    expect(mine.rows[0]).toEqual(['a', 1, '2026-01-15 12:00:00+00', { k: [1, 2] }, ['x', 'y']]);
    // In object mode too, and for statements without rows.
    expect(await db.query('select id, at from t where id = $1', ['a'])).toEqual(
      await plain.query('select id, at from t where id = $1', ['a'], { parsers: DRIZZLE_OPTIONS.parsers }),
    );
    const update = 'update t set n = n + $1 where id = $2';
    expect(await db.query(update, [1, 'a'])).toEqual(await plain.query(update, [1, 'a']));
  });

  it('parses a statement once and runs it again by name', async () => {
    const sql = 'select n from t where id = $1';
    const before = (await statements()).n;
    await db.query(sql, ['a']);
    await db.query(sql, ['b']);
    await db.query(sql, ['a']);
    expect((await statements()).n).toBe(before + 1);
  });

  it('keeps at most MAX_STATEMENTS statements, and still answers those it closed', async () => {
    for (let i = 0; i < MAX_STATEMENTS + 5; i++) await db.query(`select $1::int + ${i} as v`, [1]);
    expect((await statements()).n).toBeLessThanOrEqual(MAX_STATEMENTS);
    expect((await db.query<{ v: number }>('select $1::int + 0 as v', [41])).rows).toEqual([{ v: 41 }]);
  });

  it('throws the database error with the query, and parses a statement afresh after a failure', async () => {
    await expect(db.query('select * from nowhere where id = $1', ['a'])).rejects.toMatchObject({
      code: '42P01',
      query: 'select * from nowhere where id = $1',
    });
    const sql = 'select * from t2 where id = $1';
    await db.exec('create table t2 (id text, a int)');
    expect((await db.query(sql, ['x'])).rows).toEqual([]);
    // The kept statement's result type no longer holds: the query fails once, then is parsed again.
    await db.exec("alter table t2 add column b int; insert into t2 values ('x', 1, 2)");
    const again = await db.query(sql, ['x']).catch(() => db.query(sql, ['x']));
    expect(again.rows).toEqual([{ id: 'x', a: 1, b: 2 }]);
  });

  it('runs transactions, with the parsers dropped there too', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('update t set n = $1 where id = $2', [10, 'b'], DRIZZLE_OPTIONS);
      return tx.query('select n, at from t where id = $1', ['a'], DRIZZLE_OPTIONS);
    });
    expect(result.rows).toEqual([[2, '2026-01-15 12:00:00+00']]);
    expect((await db.query('select n from t where id = $1', ['b'])).rows).toEqual([{ n: 10 }]);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('update t set n = 99 where id = $1', ['b']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await db.query('select n from t where id = $1', ['b'])).rows).toEqual([{ n: 10 }]);
  });

  it('lets the event loop take its turn before each query', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('immediate'));
    await db.query('select 1');
    order.push('query');
    expect(order).toEqual(['immediate', 'query']);
  });

  it('leaves a parser that changes the text to PGlite, query by query', async () => {
    const upper = { rowMode: 'array' as const, parsers: { 25: (value: string) => value.toUpperCase() } };
    expect((await db.query('select id from t where id = $1', ['a'], upper)).rows).toEqual([['A']]);
    expect((await db.query('select id from t where id = $1', ['a'], { rowMode: 'array' })).rows).toEqual([['a']]);
  });
});
