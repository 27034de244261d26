import { describe, expect, it } from 'vitest';
import { ledgerRow } from './ledger-rows';

describe('ledgerRow', () => {
  it('shows a grant with its expiry', () => {
    expect(
      ledgerRow({
        id: 'l1',
        resource: 'chunkEdits',
        amount: 1000,
        reason: 'plan',
        expiresAt: '2026-06-04T10:00:00.000Z',
        apiKeyName: null,
        createdAt: '2026-03-04T10:00:00.000Z',
      }),
    ).toEqual({
      id: 'l1',
      date: 'Mar 4, 2026',
      resource: 'Proofreads',
      amount: '+1,000',
      reason: 'Plan',
      expires: 'Jun 4, 2026',
    });
  });

  it('shows a spend signed, hours with their unit, and storage without expiry', () => {
    const spend = ledgerRow({
      id: 'l2',
      resource: 'activationHours',
      amount: -0.25,
      reason: 'usage',
      expiresAt: null,
      apiKeyName: null,
      createdAt: '2026-03-05T10:00:00.000Z',
    });
    expect(spend).toMatchObject({ amount: '-0.25 h', reason: 'Used', expires: '—' });
    const slots = ledgerRow({
      id: 'l3',
      resource: 'storageSlots',
      amount: 50,
      reason: 'pack',
      expiresAt: null,
      apiKeyName: null,
      createdAt: '2026-03-05T10:00:00.000Z',
    });
    expect(slots).toMatchObject({ resource: 'Voice storage slots', amount: '+50', reason: 'Top-up pack' });
  });

  it('names the API key that spent it', () => {
    const byKey = ledgerRow({
      id: 'l5',
      resource: 'shortContent',
      amount: -1,
      reason: 'usage',
      expiresAt: '2026-06-04T10:00:00.000Z',
      apiKeyName: 'My blog',
      createdAt: '2026-03-05T10:00:00.000Z',
    });
    expect(byKey).toMatchObject({ amount: '-1', reason: 'Used by the API key “My blog”' });
  });

  it('shows credits an admin granted', () => {
    const credits = ledgerRow({
      id: 'l4',
      resource: 'credits',
      amount: 250,
      reason: 'admin',
      expiresAt: null,
      apiKeyName: null,
      createdAt: '2026-03-06T10:00:00.000Z',
    });
    expect(credits).toEqual({
      id: 'l4',
      date: 'Mar 6, 2026',
      resource: 'Credits*',
      amount: '+250',
      reason: 'Granted by an admin',
      expires: '—',
    });
  });
});
