// @vitest-environment happy-dom
// The Voice card's questions by keyboard: Delete opens on Cancel, and closing it (Escape or Cancel)
// gives focus back to the card's menu button, since the menu item that opened it is gone.
import type { Voice } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PATHS } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { testVoice } from '../../../lib/test-voice';
import { fakeServer, json } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { DashboardPage } from './DashboardPage';

afterEach(resetPage);

const focusOn = (element: HTMLElement) => vi.waitFor(() => expect(document.activeElement).toBe(element));

describe('Delete Voice', { timeout: PAGE_TEST_TIMEOUT }, () => {
  for (const how of ['Escape', 'Cancel'] as const) {
    it(`opens on Cancel and gives focus back to the Voice's menu button after ${how}`, async () => {
      const server = fakeServer();
      server.on('GET', '/api/loras', () => json<Voice[]>([testVoice()]));
      const { person } = renderWithProviders(<DashboardPage />, { user: testUser(), path: PATHS.dashboard });
      const menuButton = await screen.findByRole('button', { name: 'Voice actions' });

      menuButton.focus();
      await person.keyboard('{Enter}');
      // Mantine shows the menu after its transition: the item is there, not yet visible.
      const item = await screen.findByRole('menuitem', { name: 'Delete', hidden: true });
      item.focus();
      await person.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'Delete this Voice?' });
      const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
      await focusOn(cancel);
      await person.keyboard(how === 'Escape' ? '{Escape}' : '{Enter}');

      await focusOn(menuButton);
      expect(server.calls('DELETE', `/api/loras/${testVoice()._id}`)).toHaveLength(0);
    });
  }
});
