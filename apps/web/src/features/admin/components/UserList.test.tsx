// @vitest-environment happy-dom
// The console's user list on a phone and on a desktop (issue 57): the table scrolls sideways in a
// named box the keyboard can focus, and on a narrow screen each row's actions sit under the user's
// name, in the first column, which is always in view, instead of in a last column off the screen.
import type { AdminUsersResponse, BillingInfo } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../../lib/test-user';
import { fakeServer, json } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { MfaProvider } from './MfaProvider';
import { UserList } from './UserList';

const admin = testUser({
  id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  _id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  role: 'admin',
  mfaEnabled: true,
});
const member = testUser({ username: 'member', email: 'member@example.com' });

/** The window as wide as `width`: media queries answer as a browser of that width would. */
function windowWidth(width: number) {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const min = /min-width:\s*([\d.]+)(em|px)/.exec(query);
    const px = min ? Number(min[1]) * (min[2] === 'em' ? 16 : 1) : 0;
    return {
      matches: width >= px,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    } as MediaQueryList;
  });
}

async function renderList() {
  const server = fakeServer();
  server.on('GET', '/api/admin/users', () =>
    json<AdminUsersResponse>({
      data: { users: [member], pagination: { page: 1, pages: 1, total: 1, limit: 10 } },
    }),
  );
  server.on('GET', '/api/plans/billing', () => json<BillingInfo>({ provider: 'offline', testMode: true }));
  renderWithProviders(
    <MfaProvider>
      <UserList />
    </MfaProvider>,
    { user: admin },
  );
  const row = await screen.findByTestId('admin-user-row-member');
  const [first] = within(row).getAllByRole('cell');
  if (!first) throw new Error('the row has no cells');
  return { row, first };
}

afterEach(resetPage);

describe('UserList', () => {
  it(
    'on a phone puts a row’s actions under the user’s name, in the column always in view',
    async () => {
      windowWidth(390);
      const { first } = await renderList();
      for (const name of ['Grant credits', 'Edit limits', 'Payments', 'Delete user']) {
        expect(within(first).getByRole('button', { name })).toBeTruthy();
      }
      expect(within(first).getByRole('link', { name: 'Activity' })).toBeTruthy();
      expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'on a desktop keeps them in their own last column',
    async () => {
      windowWidth(1280);
      const { row, first } = await renderList();
      expect(within(first).queryByRole('button', { name: 'Grant credits' })).toBeNull();
      const last = within(row).getAllByRole('cell').at(-1);
      expect(last && within(last).getByRole('button', { name: 'Grant credits' })).toBeTruthy();
      expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeTruthy();
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'scrolls sideways in a named box that takes the keyboard focus while the table is wider than it',
    async () => {
      // The page's layout as a phone lays it out (happy-dom measures nothing): the table is wider.
      const wide = vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(720);
      const narrow = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(358);
      windowWidth(390);
      await renderList();
      const box = screen.getByRole('region', { name: 'Users' });
      expect(box.tabIndex).toBe(0);
      expect(box.contains(screen.getByTestId('admin-users'))).toBe(true);
      wide.mockRestore();
      narrow.mockRestore();
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'is no Tab stop while the table fits',
    async () => {
      await renderList();
      expect(screen.getByRole('region', { name: 'Users' }).hasAttribute('tabindex')).toBe(false);
    },
    PAGE_TEST_TIMEOUT,
  );
});
