// @vitest-environment happy-dom
// The purchase window as a keyboard user meets it: it opens on Close, not on the button that pays,
// and gives focus back to the control whose action ran short, however it is closed. And as a buyer
// meets it: a Voice that lacks a training and a storage slot is offered both in one checkout at
// their summed price, left for at once; a checkout the server refuses says why and can be tried
// again.

import { Button } from '@mantine/core';
import {
  type BillingInfo,
  type CheckoutResponse,
  formatUsd,
  packCheckoutMetadata,
  packsPriceCents,
} from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closePurchasePrompt, openPurchasePrompt } from '../../lib/purchase-prompt';
import { testUser } from '../../lib/test-user';
import { fakeServer, json, refusal } from '../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../test/render';
import { PurchaseModal } from './PurchaseModal';

afterEach(() => {
  closePurchasePrompt();
  resetPage();
});

const CHECKOUT = '/api/stripe/create-checkout-session';

function open() {
  const server = fakeServer();
  server.on('GET', '/api/plans/billing', () => json<BillingInfo>({ provider: 'stripe', testMode: false }));
  return { server, ...renderModal() };
}

/** The modal beside a Convert button that opens it, as a page whose action ran short. */
function renderModal() {
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

  it('offers a Voice’s training and storage slot in one checkout at their summed price, and leaves for it', async () => {
    const { server } = open();
    server.on('POST', CHECKOUT, () => json<CheckoutResponse>({ id: 'cs_9', url: '/offline-checkout/cs_9' }));
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    openPurchasePrompt({ kind: 'limit', resource: 'storageSlots', also: ['modelsTrained'] });
    const dialog = await screen.findByRole('dialog', { name: 'Insufficient resources' });
    const buy = await within(dialog).findByTestId('purchase-quick-topup');
    expect(buy.textContent).toContain(formatUsd(packsPriceCents(['extra_storage_slots', 'extra_model'])));
    buy.click();
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/offline-checkout/cs_9'));
    expect(server.calls('POST', CHECKOUT).map((call) => call.body)).toEqual([
      { metadata: packCheckoutMetadata('extra_storage_slots'), alsoPacks: ['extra_model'] },
    ]);
  });

  it('says why a checkout was refused, and can be tried again', async () => {
    const { server } = open();
    server.on('POST', CHECKOUT, () =>
      refusal(502, { msg: 'The payment provider is unavailable', code: 'PAYMENT_PROVIDER_ERROR' }),
    );
    openPurchasePrompt({ kind: 'limit', resource: 'chunkEdits' });
    const dialog = await screen.findByRole('dialog', { name: 'Insufficient resources' });
    const buy = await within(dialog).findByTestId('purchase-quick-topup');
    buy.click();
    expect((await within(dialog).findByRole('alert')).textContent).toContain('The payment provider is unavailable');
    await vi.waitFor(() => expect(buy.hasAttribute('disabled')).toBe(false));
  });
});
