// @vitest-environment happy-dom
// The Convert editor shows where the focus is (issue 57): Tiptap's styles take the outline off the
// editable area, so the editor draws Mantine's focus ring around itself while its text has the focus.
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testUser } from '../../../lib/test-user';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { MarkdownEditor } from './MarkdownEditor';

afterEach(resetPage);

describe('MarkdownEditor', () => {
  it(
    'rings the editor while its text has the focus, and only then',
    async () => {
      const { person } = renderWithProviders(
        <>
          <MarkdownEditor />
          <button type="button">After the editor</button>
        </>,
        { user: testUser() },
      );
      const text = await screen.findByRole('textbox', { name: 'Text to convert' });
      const frame = text.closest<HTMLElement>('.mantine-RichTextEditor-root');
      if (!frame) throw new Error('no editor frame');
      const ring = () => [frame.style.outlineStyle, frame.style.outlineWidth, frame.style.outlineColor];
      expect(ring()).toEqual(['', '', '']);

      await person.click(text);
      expect(document.activeElement).toBe(text);
      expect(ring()).toEqual(['solid', '2px', 'var(--mantine-primary-color-filled)']);

      await person.click(screen.getByRole('button', { name: 'After the editor' }));
      expect(ring()).toEqual(['', '', '']);
    },
    PAGE_TEST_TIMEOUT,
  );
});
