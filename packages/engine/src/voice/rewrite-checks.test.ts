import { describe, expect, it } from 'vitest';
import { isRepetitive, judgeRewrite, judgeShortPiece, keepsMarkdownLayout } from './rewrite-checks.js';

const original =
  'The committee met on Tuesday and agreed to move the spring fair to the school field, where there is more room for stalls.';

describe('judgeRewrite', () => {
  it('accepts a rewrite of about the same length that reads as prose', () => {
    expect(
      judgeRewrite(
        original,
        'On Tuesday the committee agreed the spring fair goes to the school field, with room for more stalls.',
      ),
    ).toEqual({ ok: true });
  });

  it('rejects empty output', () => {
    expect(judgeRewrite(original, '   \n')).toEqual({ ok: false, reason: 'the Voice wrote nothing' });
  });

  it('rejects output that loops on a phrase or a symbol', () => {
    expect(
      judgeRewrite(original, 'theory of theory of theory of theory of theory of theory of theory of theory').ok,
    ).toBe(false);
    expect(isRepetitive('See also irony. | | | | | | | | | | | | | | |')).toBe(true);
    expect(isRepetitive(original)).toBe(false);
  });

  it('rejects output far shorter or longer than the original', () => {
    expect(judgeRewrite(original, 'The fair moved.')).toEqual({
      ok: false,
      reason: 'it was much shorter than the original',
    });
    expect(judgeRewrite(original, `${original} ${original} ${original.split(' ').reverse().join(' ')}`).ok).toBe(false);
  });

  it('rejects a short piece rewritten into a sentence of its own', () => {
    expect(judgeRewrite('Moving day', 'The day before yesterday was a very different story. The first thing')).toEqual({
      ok: false,
      reason: 'it was much longer than the original',
    });
    expect(judgeRewrite('Moving day', 'The day we move').ok).toBe(true);
  });

  it('holds a heading or brief item to what it said: half its content words', () => {
    // A real model's Voice, for the heading of a memo about an office move (CI, 2026-12-07).
    expect(judgeRewrite('Moving day', 'The city of angels.').ok).toBe(true);
    expect(judgeShortPiece('Moving day', 'The city of angels.')).toEqual({
      ok: false,
      reason: 'it lost what the original says',
    });
    expect(judgeShortPiece('Moving day', 'The day we move').ok).toBe(true);
    expect(judgeShortPiece('Take your plants and photos home.', 'Bring the plants home.').ok).toBe(true);
    expect(judgeShortPiece('Take your plants and photos home.', 'Leave everything.').ok).toBe(false);
  });

  it('rejects output that runs into the next chunk or into the prompt format', () => {
    const next = 'Parking will be on the playground, and the gates open at nine.';
    expect(judgeRewrite(original, `The committee moved the fair to the field. ${next}`, next)).toEqual({
      ok: false,
      reason: 'it ran into the next chunk',
    });
    expect(judgeRewrite(original, 'The fair moves to the field.\n\n### Plain text:\nmore').ok).toBe(false);
  });
});

describe('keepsMarkdownLayout', () => {
  const rewritten =
    '## What changes\n\n- Parking moves to the **playground**.\n- See [the map](https://example.com/map) and `gate 2`.';

  it('accepts an edit that changes words only', () => {
    const edited =
      '## What changes\n\n- Parking moves to the playground.\n- See [our map](https://example.com/map) and `gate 2`.';
    expect(keepsMarkdownLayout(rewritten, edited)).toBe(true);
    expect(keepsMarkdownLayout('Plain words here.', 'Other plain words.')).toBe(true);
  });

  it('refuses an edit that drops a heading or a list marker, or changes a link or a code span', () => {
    expect(keepsMarkdownLayout(rewritten, rewritten.replace('## ', ''))).toBe(false);
    expect(keepsMarkdownLayout(rewritten, rewritten.replace('- Parking', 'Parking'))).toBe(false);
    expect(keepsMarkdownLayout(rewritten, rewritten.replace('example.com/map', 'example.com/other'))).toBe(false);
    expect(keepsMarkdownLayout(rewritten, rewritten.replace('`gate 2`', 'gate 2'))).toBe(false);
    expect(keepsMarkdownLayout(rewritten, rewritten.replace('\n- See', ' See'))).toBe(false);
    expect(keepsMarkdownLayout(rewritten, rewritten.replace('\n\n', '\n'))).toBe(false);
  });
});
