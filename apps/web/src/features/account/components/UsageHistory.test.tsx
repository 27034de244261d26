// @vitest-environment happy-dom
// The usage history says what "credits" are wherever a credits line shows, and only then.
import type { LedgerEntry } from '@ownvoice/shared';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testUser } from '../../../lib/test-user';
import { fakeServer, json } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { UsageHistory } from './UsageHistory';

afterEach(resetPage);

const line = (id: string, resource: LedgerEntry['resource'], reason: LedgerEntry['reason']): LedgerEntry => ({
  id,
  resource,
  amount: 50,
  reason,
  expiresAt: null,
  apiKeyName: null,
  createdAt: '2026-03-04T10:00:00.000Z',
});

async function openWith(entries: LedgerEntry[]) {
  fakeServer().on('GET', '/api/plans/ledger', () => json({ entries }));
  const { person } = renderWithProviders(<UsageHistory />, { user: testUser() });
  await person.click(screen.getByRole('button', { name: 'Show' }));
  await screen.findByTestId('usage-history-table');
}

describe('UsageHistory', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('explains credits under a history that holds them', async () => {
    await openWith([line('l1', 'credits', 'admin'), line('l2', 'chunkEdits', 'plan')]);
    expect(screen.getByText('Credits*')).toBeTruthy();
    const note = screen.getByTestId('usage-history-credits-note').textContent ?? '';
    expect(note).toMatch(/^\* Credits are a balance an OwnVoice admin adds to your account/);
    expect(note).toContain('Nothing is paid with them yet');
  });

  it('says nothing of credits when there are none', async () => {
    await openWith([line('l2', 'chunkEdits', 'plan')]);
    expect(screen.queryByTestId('usage-history-credits-note')).toBeNull();
  });
});
