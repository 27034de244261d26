import { MAX_FILE_BYTES, VOICE_MESSAGES } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import {
  classifyCountFailure,
  type FileLike,
  failureMessages,
  hasEnoughCharacters,
  screenFiles,
  totalCharacters,
} from './file-selection';

const MB = 1024 * 1024;
const file = (name: string, size = 1000, lastModified = 1): FileLike => ({ name, size, lastModified });

describe('screenFiles', () => {
  it('takes accepted types and refuses the rest with the shared messages', () => {
    const result = screenFiles([], [file('a.txt'), file('b.exe'), file('c.PDF'), file('d.htm'), file('e.doc')]);
    expect(result.accepted.map((f) => f.name)).toEqual(['a.txt', 'c.PDF', 'd.htm']);
    expect(failureMessages(result.failures)).toEqual([VOICE_MESSAGES.invalidTypes(['b.exe', 'e.doc'])]);
  });

  it('refuses a file over 10 MB', () => {
    const result = screenFiles([], [file('big.pdf', MAX_FILE_BYTES + 1), file('ok.pdf', MAX_FILE_BYTES)]);
    expect(result.accepted.map((f) => f.name)).toEqual(['ok.pdf']);
    expect(failureMessages(result.failures)).toEqual([VOICE_MESSAGES.tooLarge(['big.pdf'])]);
  });

  it('leaves out what would pass 50 MB in total, counting files already chosen', () => {
    const chosen = [file('one.pdf', 9 * MB), file('two.pdf', 9 * MB), file('three.pdf', 9 * MB)];
    const incoming = [file('four.pdf', 9 * MB), file('five.pdf', 9 * MB), file('six.pdf', 9 * MB), file('s.txt', MB)];
    const result = screenFiles(chosen, incoming);
    expect(result.accepted.map((f) => f.name)).toEqual(['four.pdf', 'five.pdf', 's.txt']);
    expect(result.overTotal.map((f) => f.name)).toEqual(['six.pdf']);
    expect(result.failures).toEqual([]);
  });

  it('takes the same file once', () => {
    const result = screenFiles([file('a.txt')], [file('a.txt'), file('b.md'), file('b.md')]);
    expect(result.accepted.map((f) => f.name)).toEqual(['b.md']);
  });
});

describe('classifyCountFailure and failureMessages', () => {
  it('recognises the server messages and groups the files by problem', () => {
    const failures = [
      classifyCountFailure('a.txt', new ApiError({ status: 400, msg: VOICE_MESSAGES.badEncoding(['a.txt']) })),
      classifyCountFailure('b.txt', new ApiError({ status: 400, msg: VOICE_MESSAGES.badEncoding(['b.txt']) })),
      classifyCountFailure('c.pdf', new ApiError({ status: 400, msg: VOICE_MESSAGES.readError })),
      classifyCountFailure('d.pdf', new ApiError({ status: 413, msg: 'Payload too large' })),
      classifyCountFailure('e.epub', new TypeError('Failed to fetch')),
    ];
    expect(failureMessages(failures)).toEqual([
      VOICE_MESSAGES.tooLarge(['d.pdf']),
      VOICE_MESSAGES.badEncoding(['a.txt', 'b.txt']),
      VOICE_MESSAGES.readError,
    ]);
  });

  it('passes any other server message through once', () => {
    const error = new ApiError({ status: 400, msg: 'Something new' });
    expect(failureMessages([classifyCountFailure('a', error), classifyCountFailure('b', error)])).toEqual([
      'Something new',
    ]);
  });
});

describe('totalCharacters', () => {
  it('adds the pasted text and every counted file', () => {
    expect(totalCharacters('abc', [10, null, 5])).toBe(18);
    expect(hasEnoughCharacters(totalCharacters('', [19_999]))).toBe(false);
    expect(hasEnoughCharacters(totalCharacters('x', [19_999]))).toBe(true);
    // A run of whitespace is one character, as the server counts it.
    expect(totalCharacters(`a${'\t'.repeat(100_000)}b`, [])).toBe(3);
    expect(hasEnoughCharacters(totalCharacters(' '.repeat(30_000), []))).toBe(false);
  });
});
