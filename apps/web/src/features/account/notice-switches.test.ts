import { NOTICES } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { latestOnly, mutedAfter, noticeSwitches } from './notice-switches';

describe('noticeSwitches', () => {
  it('lists every shared notice in order, on unless muted, the required ones always on', () => {
    const switches = noticeSwitches(['payments', 'security']);
    expect(switches.map((s) => s.key)).toEqual(NOTICES.map((n) => n.key));
    const byKey = Object.fromEntries(switches.map((s) => [s.key, s]));
    expect(byKey.payments).toMatchObject({ on: false, required: false, label: 'Receipts and renewals' });
    expect(byKey.voice_results?.on).toBe(true);
    // A required notice stays on whatever the list says.
    expect(byKey.security).toMatchObject({ on: true, required: true });
    expect(byKey.card_declined).toMatchObject({ on: true, required: true });
  });
});

describe('mutedAfter', () => {
  it('adds or removes the switched notice, in the shared order and once each', () => {
    expect(mutedAfter(['refunds'], 'voice_results', false)).toEqual(['voice_results', 'refunds']);
    expect(mutedAfter(['voice_results', 'refunds'], 'voice_results', true)).toEqual(['refunds']);
    expect(mutedAfter(['refunds'], 'refunds', false)).toEqual(['refunds']);
  });

  it('never sends a required or unknown notice, which the server would refuse', () => {
    expect(mutedAfter(['no_such_notice'], 'security', false)).toEqual([]);
  });
});

describe('latestOnly', () => {
  /** A save whose answers the test gives out one at a time. */
  function controlledSave() {
    const calls: string[][] = [];
    const answers: { resolve: () => void; reject: (error: Error) => void }[] = [];
    const save = (value: string[]) => {
      calls.push(value);
      return new Promise<void>((resolve, reject) => answers.push({ resolve, reject }));
    };
    return { calls, answers, save };
  }
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('saves one value at a time, and of the values pushed meanwhile only the latest', async () => {
    const { calls, answers, save } = controlledSave();
    const push = latestOnly(save);
    const first = push(['a']);
    const second = push(['a', 'b']);
    const third = push(['b']);
    expect(calls).toEqual([['a']]);
    answers[0]?.resolve();
    await tick();
    expect(calls).toEqual([['a'], ['b']]);
    answers[1]?.resolve();
    await expect(Promise.all([first, second, third])).resolves.toBeDefined();
    // Idle again: the next push saves at once.
    void push(['c']);
    expect(calls).toEqual([['a'], ['b'], ['c']]);
  });

  it('rejects every waiting push when a save fails, and drops what was waiting', async () => {
    const { calls, answers, save } = controlledSave();
    const push = latestOnly(save);
    const first = push(['a']);
    const second = push(['b']);
    answers[0]?.reject(new Error('offline'));
    await expect(first).rejects.toThrow('offline');
    await expect(second).rejects.toThrow('offline');
    expect(calls).toEqual([['a']]);
  });
});
