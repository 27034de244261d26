// @vitest-environment happy-dom
// The Create Voice form shows one character count: the total, counted as training counts it (a
// run of spaces or line breaks is one character), not a second raw count beside the text box.
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testUser } from '../../../lib/test-user';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import type { CreateVoiceState } from '../create-voice-store';
import { totalCharacters } from '../file-selection';
import { CreateVoiceForm } from './CreateVoiceForm';

afterEach(resetPage);

const draft = (text: string): CreateVoiceState => ({
  ownerId: null,
  name: 'Blog voice',
  text,
  files: [],
  fileErrors: [],
  textTruncated: false,
  createError: null,
  submission: { state: 'idle' },
});

/** Every number of characters the form states, as written ("12,345 characters"). */
const statedCounts = (): string[] =>
  [...(document.body.textContent ?? '').matchAll(/([\d,]+) characters/g)]
    .map((match) => match[1] ?? '')
    .filter((count) => count !== '20,000' && count !== '40,000');

describe('CreateVoiceForm', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('states the count once, below the minimum, in the too-few words', () => {
    // Wrapped lines and double spaces: the raw length and the counted total differ.
    const text = 'A line of my writing,  wrapped\n\nover  lines. '.repeat(300);
    const counted = totalCharacters(text, []);
    expect(counted).toBeLessThan(text.length);
    renderWithProviders(<CreateVoiceForm draft={draft(text)} />, { user: testUser() });
    expect(document.body.textContent).not.toContain('characters pasted');
    expect(statedCounts()).toEqual([counted.toLocaleString('en-US')]);
    expect(screen.getByTestId('create-voice-too-few').textContent).toContain(
      `You currently have ${counted.toLocaleString('en-US')} characters.`,
    );
  });

  it('states the count once when there is enough', () => {
    const text = 'Enough of my own words, written over many evenings. '.repeat(500);
    renderWithProviders(<CreateVoiceForm draft={draft(text)} />, { user: testUser() });
    expect(statedCounts()).toEqual([totalCharacters(text, []).toLocaleString('en-US')]);
    expect(screen.queryByTestId('create-voice-too-few')).toBeNull();
  });
});
