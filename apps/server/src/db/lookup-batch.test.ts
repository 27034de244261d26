// The batching of lookups asked for in one turn of the event loop (lookup-batch.ts), with a
// lookup that records what it was asked.
import { describe, expect, it } from 'vitest';
import { LookupBatch, MAX_KEYS_PER_LOOKUP } from './lookup-batch.js';

/** A batch over a table of values, keeping each list of keys it was asked. */
function table(values: Record<string, { name: string }>, fail?: (keys: string[]) => boolean) {
  const asked: string[][] = [];
  const batch = new LookupBatch<string, { name: string }>(async (keys) => {
    asked.push(keys);
    if (fail?.(keys)) throw new Error('the database went away');
    return new Map(keys.filter((k) => k in values).map((k) => [k, values[k] as { name: string }]));
  });
  return { batch, asked };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('a lookup batch', () => {
  it('answers the keys asked for in one turn with one lookup, each its own value', async () => {
    const { batch, asked } = table({ a: { name: 'Ada' }, b: { name: 'Bo' } });
    const answers = await Promise.all([batch.find('a'), batch.find('b'), batch.find('missing')]);
    expect(answers).toEqual([{ name: 'Ada' }, { name: 'Bo' }, undefined]);
    expect(asked).toEqual([['a', 'b', 'missing']]);
  });

  it('asks for a key once however many ask for it, and gives each a value of its own', async () => {
    const { batch, asked } = table({ a: { name: 'Ada' } });
    const [first, second] = await Promise.all([batch.find('a'), batch.find('a')]);
    expect(asked).toEqual([['a']]);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });

  it('looks up again for keys asked in a later turn: nothing is kept', async () => {
    const values = { a: { name: 'Ada' } };
    const { batch, asked } = table(values);
    expect(await batch.find('a')).toEqual({ name: 'Ada' });
    values.a = { name: 'Ada Lovelace' };
    await nextTurn();
    expect(await batch.find('a')).toEqual({ name: 'Ada Lovelace' });
    expect(asked).toEqual([['a'], ['a']]);
  });

  it('splits a long backlog into lookups of at most MAX_KEYS_PER_LOOKUP keys', async () => {
    const keys = Array.from({ length: MAX_KEYS_PER_LOOKUP * 2 + 1 }, (_, i) => `k${i}`);
    const { batch, asked } = table(Object.fromEntries(keys.map((k) => [k, { name: k }])));
    const answers = await Promise.all(keys.map((k) => batch.find(k)));
    expect(answers.map((a) => a?.name)).toEqual(keys);
    expect(asked.map((k) => k.length)).toEqual([MAX_KEYS_PER_LOOKUP, MAX_KEYS_PER_LOOKUP, 1]);
  });

  it("fails only the callers of a lookup that failed, with the lookup's error", async () => {
    const keys = Array.from({ length: MAX_KEYS_PER_LOOKUP + 1 }, (_, i) => `k${i}`);
    const { batch } = table(Object.fromEntries(keys.map((k) => [k, { name: k }])), (asked) =>
      asked.includes(keys.at(-1) as string),
    );
    const settled = await Promise.allSettled(keys.map((k) => batch.find(k)));
    expect(settled.slice(0, MAX_KEYS_PER_LOOKUP).every((s) => s.status === 'fulfilled')).toBe(true);
    expect(settled.at(-1)).toMatchObject({ status: 'rejected', reason: { message: 'the database went away' } });
    // The next turn's lookups are not held up by the failure.
    expect(await batch.find('k0')).toEqual({ name: 'k0' });
  });
});
