// @vitest-environment happy-dom
// The purchase window as a keyboard user meets it: it opens on Close, not on the button that pays,
// and gives focus back to the control whose action ran short, however it is closed.

import { Button } from '@mantine/core';
import type { BillingInfo } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closePurchasePrompt, openPurchasePrompt } from '../../lib/purchase-prompt';
import { testUser } from '../../lib/test-user';
import { fakeServer, json } from '../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../test/render';
import { PurchaseModal } from './PurchaseModal';

afterEach(() => {
  closePurchasePrompt();
  resetPage();
});

function open() {
  fakeServer().on('GET', '/api/plans/billing', () => json<BillingInfo>({ provider: 'stripe', testMode: false }));
  return renderWithProviders(
    <>
      <Button onClick={() => openPurchasePrompt({ kind: 'limit', resource: 'chunkEdits' })}>Convert</Button>
      <PurchaseModal />
    </>,
    { user: testUser() },
  );
}

const focusOn = (element: HTMLElement) => vi.waitFor(() => expect(document.activeElement).toBe(element));

describe('PurchaseModal', { timeout: PAGE_TEST_TIMEOUT }, () => {
  for (const how of ['Escape', 'Close'] as const) {
    it(`opens on Close and gives focus back to the opener after ${how}`, async () => {
      const { person } = open();
      const opener = screen.getByRole('button', { name: 'Convert' });

      await person.tab();
      expect(document.activeElement).toBe(opener);
      await person.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'Insufficient resources' });
      // The quick top-up is offered, and is not where Enter lands.
      await within(dialog).findByTestId('purchase-quick-topup');
      // The text button, not the × (also named Close).
      const close = within(dialog).getByText('Close').closest('button');
      if (!close) throw new Error('no Close button');
      await focusOn(close);
      await person.keyboard(how === 'Escape' ? '{Escape}' : '{Enter}');

      await focusOn(opener);
      await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Insufficient resources' })).toBeNull());
    });
  }
});
