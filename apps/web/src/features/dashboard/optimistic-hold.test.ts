import { VOICE_TIMINGS } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { testVoice } from '../../lib/test-voice';
import {
  applyOverrides,
  holdField,
  nextHoldExpiry,
  pruneOverrides,
  releaseField,
  type VoiceOverrides,
} from './optimistic-hold';

const HOLD = VOICE_TIMINGS.optimisticHoldMs;
const id = '0123456789abcdef01234567';
const waking: VoiceOverrides = { [id]: { status: { value: 'activating', from: 'ready', since: 1000 } } };

describe('applyOverrides', () => {
  it('shows the clicked status while the server still reports the old one', () => {
    const [shown] = applyOverrides([testVoice({ status: 'ready' })], waking, 1000 + HOLD - 1);
    expect(shown?.status).toBe('activating');
  });

  it('shows the server status once it reports another one', () => {
    expect(applyOverrides([testVoice({ status: 'active' })], waking, 2000)[0]?.status).toBe('active');
    expect(applyOverrides([testVoice({ status: 'failed' })], waking, 2000)[0]?.status).toBe('failed');
  });

  it('lets the hold run out after 45 seconds', () => {
    expect(applyOverrides([testVoice({ status: 'ready' })], waking, 1000 + HOLD)[0]?.status).toBe('ready');
  });

  it('holds a new name until the list catches up', () => {
    const renamed = holdField({}, id, 'name', { value: 'New name', from: 'Blog voice', since: 0 });
    expect(applyOverrides([testVoice()], renamed, 5000)[0]?.name).toBe('New name');
    expect(applyOverrides([testVoice({ name: 'New name' })], renamed, 5000)[0]?.name).toBe('New name');
    expect(applyOverrides([testVoice({ name: 'Renamed elsewhere' })], renamed, 5000)[0]?.name).toBe(
      'Renamed elsewhere',
    );
  });

  it('returns untouched Voices as they are', () => {
    const voice = testVoice({ _id: 'ffffffffffffffffffffffff' });
    expect(applyOverrides([voice], waking, 0)[0]).toBe(voice);
  });
});

describe('pruneOverrides', () => {
  it('keeps what still holds and returns the same object when nothing changed', () => {
    expect(pruneOverrides(waking, [testVoice({ status: 'ready' })], 2000)).toBe(waking);
  });

  it('drops a settled, expired or orphaned override', () => {
    expect(pruneOverrides(waking, [testVoice({ status: 'activating' })], 2000)).toEqual({});
    expect(pruneOverrides(waking, [testVoice({ status: 'ready' })], 1000 + HOLD)).toEqual({});
    expect(pruneOverrides(waking, [], 2000)).toEqual({});
  });

  it('keeps a held name while dropping a settled status of the same Voice', () => {
    const both = holdField(waking, id, 'name', { value: 'New', from: 'Blog voice', since: 1000 });
    expect(pruneOverrides(both, [testVoice({ status: 'active' })], 2000)).toEqual({
      [id]: { name: { value: 'New', from: 'Blog voice', since: 1000 } },
    });
  });
});

describe('releaseField and nextHoldExpiry', () => {
  it('reverts one field and forgets a Voice with nothing left', () => {
    expect(releaseField(waking, id, 'status')).toEqual({});
    expect(releaseField(waking, id, 'name')).toBe(waking);
  });

  it('names the earliest moment a hold runs out', () => {
    expect(nextHoldExpiry({})).toBeNull();
    const both = holdField(waking, 'ffffffffffffffffffffffff', 'name', { value: 'b', from: 'a', since: 500 });
    expect(nextHoldExpiry(both)).toBe(500 + HOLD);
  });
});
