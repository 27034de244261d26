// The create form's store against a stubbed API: counts land per file, refused files leave with
// the shared messages, and a failed upload keeps the draft.
import { VOICE_MESSAGES, type Voice } from '@ownvoice/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { testVoice } from '../../lib/test-voice';
import { countCharacters, createVoice } from './api';
import {
  acknowledgeSubmission,
  addFiles,
  claimDraft,
  clearDraft,
  readCreateVoiceState as read,
  setName,
  setText,
  submitDraft,
} from './create-voice-store';

vi.mock('./api', () => ({ countCharacters: vi.fn(), createVoice: vi.fn() }));

const count = vi.mocked(countCharacters);
const create = vi.mocked(createVoice);

const MB = 1024 * 1024;
const file = (name: string, size = 100) => new File([new Uint8Array(size)], name, { lastModified: 1 });

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
}

beforeEach(() => {
  vi.resetAllMocks();
  claimDraft('user-1');
  clearDraft();
});

describe('create voice store', () => {
  it('counts every accepted file and reports the refused ones', async () => {
    count.mockImplementation(async (f: File) => {
      if (f.name === 'nul.txt') throw new ApiError({ status: 400, msg: VOICE_MESSAGES.badEncoding(['nul.txt']) });
      return { name: f.name, characters: 12_000 };
    });
    const oversized = addFiles([file('a.md'), file('nul.txt'), file('b.exe'), file('c.pdf', 11 * MB)]);
    expect(oversized).toEqual([]);
    expect(read().files.map((f) => [f.file.name, f.charCount])).toEqual([
      ['a.md', null],
      ['nul.txt', null],
    ]);
    await settle();
    expect(read().files.map((f) => [f.file.name, f.charCount])).toEqual([['a.md', 12_000]]);
    expect(read().fileErrors).toEqual([
      VOICE_MESSAGES.invalidTypes(['b.exe']),
      VOICE_MESSAGES.tooLarge(['c.pdf']),
      VOICE_MESSAGES.badEncoding(['nul.txt']),
    ]);
  });

  it('counts one file at a time, across batches, and waits out a busy server', async () => {
    vi.useFakeTimers();
    try {
      let running = 0;
      let most = 0;
      let busyOnce = true;
      count.mockImplementation(async (f: File) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running -= 1;
        if (f.name === 'b.md' && busyOnce) {
          busyOnce = false;
          throw new ApiError({ status: 429, msg: 'busy', code: 'RATE_LIMITED', details: { retryAfterSeconds: 2 } });
        }
        return { name: f.name, characters: 5_000 };
      });
      addFiles([file('a.md'), file('b.md')]);
      addFiles([file('c.md')]);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(most).toBe(1);
      expect(read().files.map((f) => [f.file.name, f.charCount])).toEqual([
        ['a.md', 5_000],
        ['b.md', 5_000],
        ['c.md', 5_000],
      ]);
      expect(read().fileErrors).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('returns the files that would pass 50 MB for the EGAD! modal', () => {
    count.mockResolvedValue({ name: 'x', characters: 1 });
    const names = addFiles([file('1.pdf', 9 * MB), file('2.pdf', 9 * MB), file('3.pdf', 9 * MB)]);
    expect(names).toEqual([]);
    expect(addFiles([file('4.pdf', 9 * MB), file('5.pdf', 9 * MB), file('6.pdf', 9 * MB)])).toEqual(['6.pdf']);
  });

  it('cleans pasted text and filters the name as typed', () => {
    setName('My <voice>!');
    setText('a\0b');
    expect(read().name).toBe('My voice');
    expect(read().text).toBe('ab');
  });

  it('keeps the draft and the error when the upload fails', async () => {
    create.mockRejectedValue(new ApiError({ status: 400, msg: VOICE_MESSAGES.readError }));
    setName('Blog');
    setText('x'.repeat(20_000));
    const onCreated = vi.fn();
    const tempId = submitDraft({ onCreated });
    expect(tempId).toMatch(/^temp-/);
    expect(read().submission).toEqual({ state: 'submitting', tempId });
    await settle();
    expect(read().submission).toEqual({ state: 'failed', tempId });
    expect(read().createError).toBe(`Error 400: ${VOICE_MESSAGES.readError}`);
    expect(read().name).toBe('Blog');
    expect(read().text).toHaveLength(20_000);
    expect(onCreated).not.toHaveBeenCalled();
    acknowledgeSubmission(tempId ?? '');
    expect(read().submission).toEqual({ state: 'idle' });
  });

  it('hands a resource that ran out to the purchase modal and shows no form error', async () => {
    create.mockRejectedValue(
      new ApiError({
        status: 400,
        msg: 'No trainable Voices left',
        reason: 'insufficient_limit',
        limitType: 'modelsTrained',
      }),
    );
    setName('Blog');
    submitDraft({ onCreated: vi.fn() });
    await settle();
    expect(read().createError).toBeNull();
    expect(read().name).toBe('Blog');
  });

  it('empties the draft once the server accepted the Voice', async () => {
    const voice: Voice = testVoice({ status: 'pending' });
    create.mockResolvedValue(voice);
    setName('Blog');
    const onCreated = vi.fn();
    const tempId = submitDraft({ onCreated });
    await settle();
    expect(read().submission).toEqual({ state: 'created', tempId, voiceId: voice._id });
    expect(read().name).toBe('');
    expect(onCreated).toHaveBeenCalledWith(voice);
  });

  it('sends nothing without a name', () => {
    setName('   ');
    expect(submitDraft({ onCreated: vi.fn() })).toBeNull();
    expect(create).not.toHaveBeenCalled();
  });
});
