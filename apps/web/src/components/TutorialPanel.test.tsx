// @vitest-environment happy-dom
// A tutorial panel keeps out of the way of what the person is doing: it never sits over an open
// dialog, and it does not take the focus from a field being filled in.
import { Button, TextInput } from '@mantine/core';
import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { testUser } from '../lib/test-user';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../test/render';
import { Dialog } from './Dialog';
import { TutorialPanel } from './TutorialPanel';

afterEach(resetPage);

const STEPS = [{ title: 'Pick a Voice', body: 'Choose one that is awake.' }];

function PageWithDialog() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Rename</Button>
      <Dialog opened={open} onClose={() => setOpen(false)} title="Rename Voice">
        <TextInput label="New name" />
      </Dialog>
      <TutorialPanel label="Dashboard tour" steps={STEPS} onClose={() => undefined} testId="tour" />
    </>
  );
}

describe('TutorialPanel', () => {
  it(
    'steps out of sight while a dialog is open, and comes back when it closes',
    async () => {
      const { person } = renderWithProviders(<PageWithDialog />, { user: testUser() });
      const panel = screen.getByTestId('tour');
      expect(panel.style.visibility).not.toBe('hidden');
      await person.click(screen.getByRole('button', { name: 'Rename' }));
      await screen.findByRole('dialog', { name: 'Rename Voice' });
      await waitFor(() => expect(panel.style.visibility).toBe('hidden'));
      expect(panel.getAttribute('data-hidden')).toBe('true');
      await person.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rename Voice' })).toBeNull());
      await waitFor(() => expect(panel.style.visibility).not.toBe('hidden'));
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'opening while a field is being filled in, leaves the focus in the field',
    async () => {
      function Typing() {
        const [tour, setTour] = useState(false);
        return (
          <>
            <TextInput label="Voice name" onChange={() => setTour(true)} />
            {tour && <TutorialPanel label="Voice tutorial" steps={STEPS} onClose={() => undefined} testId="tour" />}
          </>
        );
      }
      const { person } = renderWithProviders(<Typing />, { user: testUser() });
      const field = screen.getByRole('textbox', { name: 'Voice name' });
      await person.click(field);
      await person.keyboard('B');
      await act(async () => undefined);
      expect(screen.getByTestId('tour')).toBeTruthy();
      expect(document.activeElement).toBe(field);
    },
    PAGE_TEST_TIMEOUT,
  );
});
