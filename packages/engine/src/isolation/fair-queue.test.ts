// The fair queue against the order a first-come queue would give: two owners with many slow jobs
// cannot make a third owner's one job wait behind them.
import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue.js';

/** Lets every resolved promise run its continuation. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('FairQueue', () => {
  it('gives a newcomer the next free turn, however many jobs others queued first', async () => {
    const queue = new FairQueue(2);
    const started: string[] = [];
    const releases = new Map<string, () => void>();
    const submit = (owner: string, job: string) =>
      void queue.take(owner).then((release) => {
        started.push(job);
        releases.set(job, release);
      });
    for (let i = 1; i <= 4; i++) {
      submit('a', `a${i}`);
      submit('b', `b${i}`);
    }
    submit('c', 'c1');
    await settle();
    expect(started).toEqual(['a1', 'b1']);
    expect(queue.queued).toBe(7);

    releases.get('a1')?.();
    await settle();
    // a and c hold nothing now; c was never served: c goes first.
    expect(started).toEqual(['a1', 'b1', 'c1']);
    releases.get('b1')?.();
    await settle();
    // a and b hold nothing; a was served longer ago.
    expect(started.slice(3)).toEqual(['a2']);
    releases.get('c1')?.();
    await settle();
    expect(started.slice(4)).toEqual(['b2']);
  });

  it('keeps each owner’s own order and alternates owners who hold as much', async () => {
    const queue = new FairQueue(1);
    const order: string[] = [];
    const run = async (owner: string, job: string) => {
      const release = await queue.take(owner);
      order.push(job);
      await settle();
      release();
    };
    await Promise.all([run('a', 'a1'), run('a', 'a2'), run('a', 'a3'), run('b', 'b1'), run('b', 'b2')]);
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
  });

  it('never runs more than its capacity, and a release called twice counts once', async () => {
    const queue = new FairQueue(3);
    let running = 0;
    let most = 0;
    const job = async (owner: string) => {
      const release = await queue.take(owner);
      running++;
      most = Math.max(most, running);
      await settle();
      running--;
      release();
      release();
    };
    await Promise.all(Array.from({ length: 30 }, (_, i) => job(`owner${i % 4}`)));
    expect(most).toBe(3);
    expect(queue.busy).toBe(0);
    expect(queue.queued).toBe(0);
  });
});
