import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memorySessionStore } from '../billing/session-store';
import { forgetKeptWork, keptWorkKey, readKeptWork, writeKeptWork } from './kept-work';

const schema = z.object({ text: z.string() });

describe('kept work', () => {
  it('comes back to the same person on the same page only', () => {
    const store = memorySessionStore();
    writeKeptWork('convert', 'ada', { text: 'Dear team,' }, store);
    expect(readKeptWork('convert', 'ada', schema, store)).toEqual({ text: 'Dear team,' });
    expect(readKeptWork('convert', 'bob', schema, store)).toBeNull();
    expect(readKeptWork('create', 'ada', schema, store)).toBeNull();
  });

  it('drops what does not pass the page schema', () => {
    const store = memorySessionStore();
    store.setItem(keptWorkKey('convert', 'ada'), '{"text": 42}');
    expect(readKeptWork('convert', 'ada', schema, store)).toBeNull();
    expect(store.items.size).toBe(0);
    store.setItem(keptWorkKey('convert', 'ada'), 'not json');
    expect(readKeptWork('convert', 'ada', schema, store)).toBeNull();
  });

  it('is forgotten when emptied and on signing out', () => {
    const store = memorySessionStore();
    writeKeptWork('convert', 'ada', { text: 'a' }, store);
    writeKeptWork('convert', 'ada', null, store);
    expect(store.items.size).toBe(0);
    writeKeptWork('convert', 'ada', { text: 'a' }, store);
    writeKeptWork('create', 'ada', { text: 'b' }, store);
    writeKeptWork('create', 'bob', { text: 'c' }, store);
    forgetKeptWork('ada', store);
    expect([...store.items.keys()]).toEqual([keptWorkKey('create', 'bob')]);
  });

  it('a storage that refuses loses only the keeping', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => undefined,
    };
    expect(() => writeKeptWork('convert', 'ada', { text: 'a' }, refusing)).not.toThrow();
    expect(readKeptWork('convert', 'ada', schema, refusing)).toBeNull();
  });
});
