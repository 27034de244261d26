// @vitest-environment happy-dom
// The account page's webhooks as a person uses them: adding one asks for the password again,
// sends the address and the events chosen, and shows the signing secret once; each endpoint
// shows its recent deliveries, and Replay sends one again. Only the server is fake.
import type { CreatedWebhook, WebhookDelivery, WebhookEndpoint } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testUser } from '../../../lib/test-user';
import { fakeServer, json } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { WebhooksCard } from './WebhooksCard';

const HOOKS = '/api/auth/webhooks';
const ID = '0123456789abcdef0123abcd';
const DELIVERY = 'abcdef0123456789abcdef01';
const SECRET = `whsec_${'b'.repeat(32)}`;

const webhook: WebhookEndpoint = {
  id: ID,
  url: 'https://example.com/hook',
  events: ['voice.training.succeeded', 'voice.training.failed'],
  shown: 'whsec_bbbbbb…',
  createdAt: '2026-12-06T10:00:00.000Z',
};
const failed: WebhookDelivery = {
  id: DELIVERY,
  eventId: 'evt_1',
  type: 'voice.training.failed',
  createdAt: '2026-12-06T11:00:00.000Z',
  attempts: 6,
  lastStatus: 503,
  lastError: 'The endpoint answered 503: down for maintenance',
  nextAttemptAt: null,
  deliveredAt: null,
};

afterEach(resetPage);

describe('WebhooksCard', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('adds an endpoint with the password again and shows its secret once', async () => {
    const server = fakeServer();
    server.on('GET', HOOKS, () => json({ webhooks: [] }));
    server.on('POST', HOOKS, () => json<CreatedWebhook>({ webhook, secret: SECRET }, 201));
    const { person } = renderWithProviders(<WebhooksCard />, { user: testUser() });

    await person.click(await screen.findByRole('button', { name: 'New webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'New webhook' });
    await person.type(within(dialog).getByRole('textbox', { name: /^Endpoint URL/ }), 'https://example.com/hook');
    await person.click(within(dialog).getByRole('checkbox', { name: 'A training was cancelled' }));
    await person.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Enter your current password.');
    expect(server.calls('POST', HOOKS)).toHaveLength(0);

    await person.type(within(dialog).getByLabelText(/^Your password/), 'Passw0rdOk');
    await person.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    const shown = await screen.findByRole('textbox', { name: "Your webhook's signing secret" });
    expect((shown as HTMLInputElement).value).toBe(SECRET);
    expect(server.calls('POST', HOOKS)[0]?.body).toEqual({
      url: 'https://example.com/hook',
      events: ['voice.training.succeeded', 'voice.training.failed'],
      currentPassword: 'Passw0rdOk',
    });
  });

  it('shows an endpoint’s recent deliveries and replays one', async () => {
    const server = fakeServer();
    server.on('GET', HOOKS, () => json({ webhooks: [webhook] }));
    server.on('GET', `${HOOKS}/${ID}/deliveries`, () => json({ deliveries: [failed] }));
    server.on('POST', `${HOOKS}/${ID}/deliveries/${DELIVERY}/replay`, () =>
      json<WebhookDelivery>({ ...failed, attempts: 0, nextAttemptAt: '2026-12-06T12:00:00.000Z' }, 202),
    );
    const { person } = renderWithProviders(<WebhooksCard />, { user: testUser() });

    const row = await screen.findByTestId('webhook-row');
    expect(row.textContent).toContain('https://example.com/hook');
    expect(row.textContent).toContain('A training failed');
    await person.click(within(row).getByRole('button', { name: 'Deliveries' }));
    const delivery = await within(row).findByTestId('webhook-delivery');
    expect(delivery.textContent).toContain('Failed');
    expect(delivery.textContent).toContain('6 attempts');
    expect(delivery.textContent).toContain('down for maintenance');
    await person.click(within(delivery).getByRole('button', { name: /^Replay/ }));
    await expect.poll(() => server.calls('POST', `${HOOKS}/${ID}/deliveries/${DELIVERY}/replay`).length).toBe(1);
  });

  it('asks an address not yet confirmed to confirm it first', async () => {
    const server = fakeServer();
    server.on('GET', HOOKS, () => json({ webhooks: [] }));
    renderWithProviders(<WebhooksCard />, { user: testUser({ emailVerified: false }) });
    const button = await screen.findByRole('button', { name: 'New webhook' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('webhooks-card').textContent).toContain('Confirm your address first');
  });
});
