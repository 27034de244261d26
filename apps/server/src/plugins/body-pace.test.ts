// The pace a body must keep, with the shipped numbers: an honest slow connection keeps it from its
// first byte to its last, within the request timeout; a trickle falls behind soon after the grace.
import { MAX_TOTAL_UPLOAD_BYTES } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { bytesDue } from './body-pace.js';

const shipped = loadConfig({}).http;
/** 1 Mbit/s, as bytes a second. */
const ONE_MBIT = 125_000;

describe('bytesDue with the shipped pace', () => {
  it('keeps a 50 MB upload at 1 Mbit/s ahead of the pace all the way, and inside the request timeout', () => {
    const seconds = MAX_TOTAL_UPLOAD_BYTES / ONE_MBIT;
    for (let t = 0; t <= seconds; t += 0.5) {
      expect(ONE_MBIT * t, `at ${t} s`).toBeGreaterThanOrEqual(bytesDue(shipped, t * 1000));
    }
    // About 7 minutes, with the headers' 30 s before it.
    expect(seconds * 1000 + shipped.headersTimeoutMs).toBeLessThan(shipped.requestTimeoutMs);
    // And even a body sent at the pace itself ends before the request timeout cuts it.
    const atPace = shipped.bodyGraceMs + (MAX_TOTAL_UPLOAD_BYTES / shipped.bodyMinBytesPerSecond) * 1000;
    expect(atPace + shipped.headersTimeoutMs).toBeLessThan(shipped.requestTimeoutMs);
  });

  it('leaves a 1 KB/s trickle behind a few seconds after the grace, long before 300 s', () => {
    const behindAt = [...Array(600).keys()].find((t) => 1024 * t < bytesDue(shipped, t * 1000));
    expect(behindAt).toBeDefined();
    expect(behindAt).toBeLessThanOrEqual(shipped.bodyGraceMs / 1000 + 1);
  });

  it('asks nothing during the grace', () => {
    expect(bytesDue(shipped, 0)).toBe(0);
    expect(bytesDue(shipped, shipped.bodyGraceMs)).toBe(0);
    expect(bytesDue(shipped, shipped.bodyGraceMs + 1000)).toBe(shipped.bodyMinBytesPerSecond);
  });
});
