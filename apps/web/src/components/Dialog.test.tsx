// @vitest-environment happy-dom
// Focus around a dialog, as a keyboard user meets it: it starts on the safe choice of a question,
// and comes back to the control that opened the dialog however it was opened and closed.
import { Button, Menu } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testUser } from '../lib/test-user';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../test/render';
import { ConfirmDialog } from './ConfirmDialog';
import { Dialog } from './Dialog';

afterEach(resetPage);

/** A dialog that stays mounted and is opened by its `opened` flag, as most of the app's are. */
function MountedClosed() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open</Button>
      <Dialog opened={open} onClose={() => setOpen(false)} title="A dialog">
        <Button onClick={() => setOpen(false)}>Done</Button>
      </Dialog>
    </>
  );
}

/** A dialog mounted only while open (the admin's forms, two-factor's), which Mantine records nothing for. */
function MountedOpen() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open</Button>
      {open && (
        <Dialog opened onClose={() => setOpen(false)} title="A dialog">
          <Button onClick={() => setOpen(false)}>Done</Button>
        </Dialog>
      )}
    </>
  );
}

/** A question asked from a menu item: the menu is gone when the question closes. */
function FromMenu() {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Menu>
        <Menu.Target>
          <Button>Actions</Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => setAsking(true)}>Delete</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ConfirmDialog
        opened={asking}
        title="Delete it?"
        confirmLabel="Delete"
        danger
        onConfirm={() => setAsking(false)}
        onCancel={() => setAsking(false)}
      >
        It goes for good.
      </ConfirmDialog>
    </>
  );
}

/** A dialog whose choice replaces it with another (the proofread question leading to the purchase window). */
function Chained() {
  const [which, setWhich] = useState<'first' | 'second' | null>(null);
  return (
    <>
      <Button onClick={() => setWhich('first')}>Open</Button>
      <Dialog opened={which === 'first'} onClose={() => setWhich(null)} title="First">
        <Button onClick={() => setWhich('second')} data-autofocus>
          Next
        </Button>
      </Dialog>
      <Dialog opened={which === 'second'} onClose={() => setWhich(null)} title="Second">
        <Button onClick={() => setWhich(null)}>Done</Button>
      </Dialog>
    </>
  );
}

/**
 * A form that shows a placeholder while it sends and comes back with a dialog when the answer asks
 * for something (the create-Voice form and its purchase window): the button that opened it is drawn anew.
 */
function DrawnAnew() {
  const [phase, setPhase] = useState<'form' | 'sending' | 'asking'>('form');
  if (phase === 'sending') return <p>Sending…</p>;
  return (
    <>
      <Button
        data-testid="send"
        onClick={() => {
          setPhase('sending');
          setTimeout(() => setPhase('asking'), 10);
        }}
      >
        Send
      </Button>
      <Dialog opened={phase === 'asking'} onClose={() => setPhase('form')} title="Buy more">
        <Button onClick={() => setPhase('form')}>Close</Button>
      </Dialog>
    </>
  );
}

const focused = () => document.activeElement;
const focusOn = (element: HTMLElement) => vi.waitFor(() => expect(focused()).toBe(element));

function render(node: React.ReactNode) {
  return renderWithProviders(node, { user: testUser() });
}

describe('Dialog focus', { timeout: PAGE_TEST_TIMEOUT }, () => {
  for (const [name, Harness] of [
    ['mounted closed', MountedClosed],
    ['mounted open', MountedOpen],
  ] as const) {
    it(`gives focus back to the opener after Escape and after its own button (${name})`, async () => {
      const { person } = render(<Harness />);
      const opener = screen.getByRole('button', { name: 'Open' });

      await person.tab();
      expect(focused()).toBe(opener);
      await person.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'A dialog' });
      await vi.waitFor(() => expect(dialog.contains(focused())).toBe(true));
      await person.keyboard('{Escape}');
      await focusOn(opener);

      await person.keyboard('{Enter}');
      const again = await screen.findByRole('dialog', { name: 'A dialog' });
      const done = within(again).getByRole('button', { name: 'Done' });
      done.focus();
      await person.keyboard('{Enter}');
      await focusOn(opener);
    });
  }

  it("gives focus to the menu's button when the menu item that opened the dialog is gone", async () => {
    const { person } = render(<FromMenu />);
    const menuButton = screen.getByRole('button', { name: 'Actions' });

    await person.tab();
    await person.keyboard('{Enter}');
    // Mantine shows the menu after its transition: the item is there, not yet visible.
    const item = await screen.findByRole('menuitem', { name: 'Delete', hidden: true });
    item.focus();
    await person.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Delete it?' });
    await focusOn(within(dialog).getByRole('button', { name: 'Cancel' }));
    await person.keyboard('{Escape}');

    await focusOn(menuButton);
  });

  it('gives focus to the opener drawn anew when the one that opened it is gone', async () => {
    const { person } = render(<DrawnAnew />);
    await person.tab();
    await person.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: 'Buy more' });
    await person.keyboard('{Escape}');

    await focusOn(screen.getByRole('button', { name: 'Send' }));
  });

  it('gives focus back to the first opener when a dialog led to another', async () => {
    const { person } = render(<Chained />);
    const opener = screen.getByRole('button', { name: 'Open' });

    await person.tab();
    await person.keyboard('{Enter}');
    const first = await screen.findByRole('dialog', { name: 'First' });
    const next = within(first).getByRole('button', { name: 'Next' });
    await focusOn(next);
    await person.keyboard('{Enter}');
    const second = await screen.findByRole('dialog', { name: 'Second' });
    await vi.waitFor(() => expect(second.contains(focused())).toBe(true));
    await person.keyboard('{Escape}');

    await focusOn(opener);
  });
});

describe('ConfirmDialog', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('opens on Cancel, never on the action it asks about', async () => {
    render(
      <ConfirmDialog opened title="Delete it?" confirmLabel="Delete" danger onConfirm={vi.fn()} onCancel={vi.fn()}>
        It goes for good.
      </ConfirmDialog>,
    );

    const dialog = await screen.findByRole('dialog', { name: 'Delete it?' });
    await focusOn(within(dialog).getByRole('button', { name: 'Cancel' }));
  });
});
