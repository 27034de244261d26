// @vitest-environment happy-dom
// The password card as a person uses it: after a change, the API keys that still work are named,
// since a change of password (unlike a reset) leaves them working. Only the server is fake.
import type { ApiKey } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testUser } from '../../../lib/test-user';
import { fakeServer, json } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { PasswordCard } from './PasswordCard';

const key = (id: string, name: string): ApiKey => ({
  id,
  name,
  shown: 'ovk_aaaaaaaa…',
  scopes: ['convert'],
  rateLimitPerMinute: 60,
  wakesVoices: true,
  createdAt: '2026-11-27T14:05:00.000Z',
  lastUsedAt: null,
});

afterEach(resetPage);

describe('PasswordCard', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('names the API keys that still work after the change, so one not made by its owner can be revoked', async () => {
    const server = fakeServer();
    server.on('POST', '/api/auth/password/change', () => json({ ok: true }));
    server.on('GET', '/api/auth/api-keys', () =>
      json({ keys: [key('0123456789abcdef0123abc1', 'My editor'), key('0123456789abcdef0123abc2', 'Night script')] }),
    );
    const { person } = renderWithProviders(<PasswordCard />, { user: testUser() });

    await person.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change your password' });
    await person.type(within(dialog).getByLabelText(/^Current password/), 'Passw0rdOk');
    await person.type(within(dialog).getByLabelText(/^New password/), 'N3w-Passw0rd-ok');
    await person.type(within(dialog).getByLabelText(/^Confirm new password/), 'N3w-Passw0rd-ok');
    await person.click(within(dialog).getByRole('button', { name: 'Save the new password' }));

    const kept = await screen.findByTestId('password-changed-keys');
    expect(kept.textContent).toContain('My editor');
    expect(kept.textContent).toContain('Night script');
    expect(kept.textContent).toContain('revoke');
    expect(server.calls('POST', '/api/auth/password/change')).toHaveLength(1);
  });
});
