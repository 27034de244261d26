// The console's billing card: whether payments reach accounts, the last reconciliation, what waits
// to be done at the provider, and what a reconciliation run on demand found.
import type { AdminBillingStatus, Reconciliation } from '@ownvoice/shared';
import { formatCount, formatDateTime } from '../../lib/format';

type HealthStatus = AdminBillingStatus['health']['status'];

const HEALTH: Record<HealthStatus, { label: string; color: string; fallback: string }> = {
  ok: { label: 'OK', color: 'teal', fallback: 'Payments reach the accounts they are for.' },
  degraded: { label: 'Degraded', color: 'orange', fallback: 'Some payments may not have reached their accounts.' },
  off: { label: 'Off', color: 'gray', fallback: 'This server takes no payments.' },
};

export interface BillingStatusView {
  health: { label: string; color: string; reason: string };
  lastReconciliation: string;
  /** The last run's failure, said apart so it stands out. */
  lastError: string | null;
  pendingActions: string;
  /** A server without payments has nothing to reconcile (the server answers 404). */
  canReconcile: boolean;
}

const payments = (n: number): string => `${formatCount(n)} ${n === 1 ? 'payment' : 'payments'}`;

/** "Mar 4, 2026, 10:00 AM: checked 12 payments, repaired 0". */
export function reconciliationLine(run: Reconciliation): string {
  if (!run.finishedAt) return `Started ${formatDateTime(run.startedAt)}, still running`;
  return `${formatDateTime(run.finishedAt)}: checked ${payments(run.checked)}, repaired ${formatCount(run.repaired)}`;
}

export function billingStatusView(status: AdminBillingStatus): BillingStatusView {
  const health = HEALTH[status.health.status];
  const last = status.lastReconciliation;
  const pending = status.pendingActions;
  return {
    health: { label: health.label, color: health.color, reason: status.health.reason ?? health.fallback },
    lastReconciliation: last ? reconciliationLine(last) : 'None yet',
    lastError: last?.error ?? null,
    pendingActions:
      pending === 0
        ? 'None'
        : `${formatCount(pending)} waiting (refunds, cancellations or checkouts to close), retried every minute`,
    canReconcile: status.health.status !== 'off',
  };
}

/** What a reconciliation run on demand found. */
export function reconcileResult(run: Reconciliation): { ok: boolean; message: string } {
  if (run.error)
    return { ok: false, message: `Reconciliation failed after checking ${payments(run.checked)}: ${run.error}` };
  const missed =
    run.repaired === 0
      ? 'none had been missed'
      : `${formatCount(run.repaired)} had been missed and ${run.repaired === 1 ? 'is' : 'are'} now applied`;
  return { ok: true, message: `Checked ${payments(run.checked)} from the last seven days; ${missed}.` };
}
