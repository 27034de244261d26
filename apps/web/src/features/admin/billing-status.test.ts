import type { AdminBillingStatus, Reconciliation } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { billingStatusView, reconcileResult, reconciliationLine } from './billing-status';

const run = (changes: Partial<Reconciliation> = {}): Reconciliation => ({
  id: 'rec_1',
  startedAt: '2026-03-04T10:00:00.000Z',
  finishedAt: '2026-03-04T10:00:05.000Z',
  checked: 12,
  repaired: 0,
  error: null,
  requestedBy: null,
  ...changes,
});

const status = (changes: Partial<AdminBillingStatus> = {}): AdminBillingStatus => ({
  health: { status: 'ok', reason: null },
  lastReconciliation: null,
  pendingActions: 0,
  ...changes,
});

describe('billingStatusView', () => {
  it('says a healthy billing in words, with nothing waiting', () => {
    expect(billingStatusView(status())).toEqual({
      health: { label: 'OK', color: 'teal', reason: 'Payments reach the accounts they are for.' },
      lastReconciliation: 'None yet',
      lastError: null,
      pendingActions: 'None',
      canReconcile: true,
    });
  });

  it("gives the server's reason when degraded, and the last run's failure apart", () => {
    const view = billingStatusView(
      status({
        health: { status: 'degraded', reason: 'Webhook deliveries are being refused.' },
        lastReconciliation: run({ error: 'Stripe is unreachable' }),
        pendingActions: 2,
      }),
    );
    expect(view.health).toEqual({
      label: 'Degraded',
      color: 'orange',
      reason: 'Webhook deliveries are being refused.',
    });
    expect(view.lastReconciliation).toMatch(/^Mar 4, 2026.*: checked 12 payments, repaired 0$/);
    expect(view.lastError).toBe('Stripe is unreachable');
    expect(view.pendingActions).toMatch(/^2 waiting/);
  });

  it('offers no reconciliation on a server without payments', () => {
    expect(billingStatusView(status({ health: { status: 'off', reason: null } }))).toMatchObject({
      health: { label: 'Off', reason: 'This server takes no payments.' },
      canReconcile: false,
    });
  });
});

describe('reconciliationLine', () => {
  it('says a run still under way', () => {
    expect(reconciliationLine(run({ finishedAt: null }))).toMatch(/^Started Mar 4, 2026.*, still running$/);
    expect(reconciliationLine(run({ checked: 1, repaired: 1 }))).toMatch(/checked 1 payment, repaired 1$/);
  });
});

describe('reconcileResult', () => {
  it('says what was checked and what had been missed', () => {
    expect(reconcileResult(run())).toEqual({
      ok: true,
      message: 'Checked 12 payments from the last seven days; none had been missed.',
    });
    expect(reconcileResult(run({ repaired: 1 })).message).toBe(
      'Checked 12 payments from the last seven days; 1 had been missed and is now applied.',
    );
    expect(reconcileResult(run({ repaired: 3 })).message).toContain('3 had been missed and are now applied');
  });

  it('says a failed run with its reason', () => {
    expect(reconcileResult(run({ checked: 4, error: 'Stripe is unreachable' }))).toEqual({
      ok: false,
      message: 'Reconciliation failed after checking 4 payments: Stripe is unreachable',
    });
  });
});
