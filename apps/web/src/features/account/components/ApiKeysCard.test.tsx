// @vitest-environment happy-dom
// The account page's API keys as a person uses them: making a key asks for the password again (and
// a code while two-factor is on), says clearly why the server refused, and shows the secret once;
// an address not yet confirmed is told to confirm it first. Only the server is fake.
import { type ApiKey, type CreatedApiKey, EMAIL_MESSAGES } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testUser } from '../../../lib/test-user';
import { fakeServer, json, refusal } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { ApiKeysCard } from './ApiKeysCard';

const KEYS = '/api/auth/api-keys';
const SECRET = `ovk_${'a'.repeat(43)}`;

const key = (name: string): ApiKey => ({
  id: '0123456789abcdef0123abcd',
  name,
  shown: 'ovk_aaaaaaaa…',
  scopes: ['voices:read', 'convert', 'create'],
  rateLimitPerMinute: 60,
  wakesVoices: true,
  createdAt: '2026-11-27T14:05:00.000Z',
  lastUsedAt: null,
});

function serve(keys: ApiKey[] = []) {
  const server = fakeServer();
  server.on('GET', KEYS, () => json({ keys }));
  return server;
}

/** Opens the new-key dialog and names the key; answers the dialog. */
async function startKey(person: ReturnType<typeof renderWithProviders>['person'], name: string) {
  await person.click(await screen.findByRole('button', { name: 'New key' }));
  const dialog = await screen.findByRole('dialog', { name: 'New API key' });
  await person.type(within(dialog).getByRole('textbox', { name: /^Name/ }), name);
  return dialog;
}

afterEach(resetPage);

describe('ApiKeysCard', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('asks for the password before sending anything, then shows why a wrong one was refused', async () => {
    const server = serve();
    server.on('POST', KEYS, () => refusal(400, { code: 'INVALID_CREDENTIALS', msg: EMAIL_MESSAGES.wrongPassword }));
    const { person } = renderWithProviders(<ApiKeysCard />, { user: testUser() });

    const dialog = await startKey(person, 'My editor');
    expect(within(dialog).queryByLabelText(/Authentication code/)).toBeNull();
    await person.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Enter your current password.');
    expect(server.calls('POST', KEYS)).toHaveLength(0);

    await person.type(within(dialog).getByLabelText(/^Your password/), 'Wrong-Passw0rd');
    await person.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect((await within(dialog).findByText(EMAIL_MESSAGES.wrongPassword)).closest('[role="alert"]')).toBeTruthy();
    expect(server.calls('POST', KEYS)[0]?.body).toMatchObject({
      name: 'My editor',
      currentPassword: 'Wrong-Passw0rd',
    });
  });

  it('lets a key wake sleeping Voices unless the person turns it off, and lists the keys that do', async () => {
    const server = serve([key('Night script')]);
    server.on('POST', KEYS, () =>
      json<CreatedApiKey>({ key: { ...key('Editor'), wakesVoices: false }, secret: SECRET }, 201),
    );
    const { person } = renderWithProviders(<ApiKeysCard />, { user: testUser() });
    expect(await screen.findByText('Wakes sleeping Voices')).toBeTruthy();

    const dialog = await startKey(person, 'Editor');
    const wakes = within(dialog).getByRole('checkbox', { name: /Wake a sleeping Voice/ });
    expect((wakes as HTMLInputElement).checked).toBe(true);
    await person.click(wakes);
    await person.type(within(dialog).getByLabelText(/^Your password/), 'Passw0rdOk');
    await person.click(within(dialog).getByRole('button', { name: 'Create key' }));
    await screen.findByRole('textbox', { name: 'Your new API key' });
    expect(server.calls('POST', KEYS)[0]?.body).toMatchObject({ name: 'Editor', wakesVoices: false });
  });

  it('leaves training Voices off until the person asks for it', async () => {
    serve();
    const { person } = renderWithProviders(<ApiKeysCard />, { user: testUser() });
    const dialog = await startKey(person, 'Trainer');
    const training = within(dialog).getByRole('checkbox', { name: 'Train Voices' }) as HTMLInputElement;
    expect(training.checked).toBe(false);
    expect((within(dialog).getByRole('checkbox', { name: 'Convert text' }) as HTMLInputElement).checked).toBe(true);
  });

  it('asks for a code too while two-factor is on, and sends both', async () => {
    const server = serve();
    server.on('POST', KEYS, () => json<CreatedApiKey>({ key: key('My editor'), secret: SECRET }, 201));
    const { person } = renderWithProviders(<ApiKeysCard />, { user: testUser({ mfaEnabled: true }) });

    const dialog = await startKey(person, 'My editor');
    await person.type(within(dialog).getByLabelText(/^Your password/), 'Passw0rdOk');
    await person.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(EMAIL_MESSAGES.codeNeeded);
    expect(server.calls('POST', KEYS)).toHaveLength(0);

    await person.type(within(dialog).getByLabelText(/^Authentication code/), '123456');
    await person.click(within(dialog).getByRole('button', { name: 'Create key' }));
    const shown = await screen.findByRole('textbox', { name: 'Your new API key' });
    expect((shown as HTMLInputElement).value).toBe(SECRET);
    expect(server.calls('POST', KEYS)[0]?.body).toMatchObject({ currentPassword: 'Passw0rdOk', mfaToken: '123456' });
  });

  it('asks an address not yet confirmed to confirm it first', async () => {
    serve();
    renderWithProviders(<ApiKeysCard />, { user: testUser({ emailVerified: false }) });
    const button = await screen.findByRole('button', { name: 'New key' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('api-keys-card').textContent).toContain('Confirm your address first');
  });
});
