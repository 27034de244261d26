// @vitest-environment happy-dom
// The console's e-mail card on a server without a mail server, as an admin uses it: a message's
// text is fetched only when its row is opened, and it comes with its links' keys masked, which the
// card says, with where on the server the whole message is and that reading it was recorded.
import { type AdminMailResponse, type AdminMailText, MASKED_KEY } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testUser } from '../../../lib/test-user';
import { fakeServer, json } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { testMessage } from '../test-mail-message';
import { MailCard } from './MailCard';

const ID = '6f1c2b9e-4d3a-4c5b-9a8e-1f2d3c4b5a69';
const FILE = `/srv/ownvoice/outbox/${ID}.json`;
const MASKED = `Choose a new password: https://ownvoice.example/auth/reset?token=${MASKED_KEY}`;

function serve() {
  const server = fakeServer();
  server.on('GET', '/api/admin/mail', () =>
    json<{ data: AdminMailResponse['data'] }>({
      data: {
        destination: 'the outbox folder /srv/ownvoice/outbox',
        outbox: true,
        failed: 0,
        messages: [testMessage({ id: ID, readable: true })],
      },
    }),
  );
  server.on('GET', `/api/admin/mail/${ID}`, () =>
    json<{ data: AdminMailText }>({ data: { text: MASKED, masked: true, file: FILE } }),
  );
  return server;
}

afterEach(resetPage);

describe('MailCard', () => {
  it(
    'opens a message’s text only when asked, with its link’s key masked and where the whole message is',
    async () => {
      const server = serve();
      const { person } = renderWithProviders(<MailCard />, { user: testUser({ role: 'admin', mfaEnabled: true }) });
      const open = await screen.findByRole('button', {
        name: 'Show the text of "Reset your OwnVoice password" to writer@example.com',
      });
      // Listing the messages reads no text: opening one is what gets recorded.
      expect(server.calls('GET', `/api/admin/mail/${ID}`)).toHaveLength(0);

      await person.click(open);
      const text = await screen.findByTestId('admin-mail-text');
      expect(await within(text).findByText(MASKED)).toBeTruthy();
      expect(within(text).getByTestId('admin-mail-masked').textContent).toContain('The key in each link is hidden');
      expect(within(text).getByTestId('admin-mail-masked').textContent).toContain(FILE);
      expect(within(text).getByText(/recorded in the activity log/)).toBeTruthy();
      expect(server.calls('GET', `/api/admin/mail/${ID}`)).toHaveLength(1);
    },
    PAGE_TEST_TIMEOUT,
  );
});
