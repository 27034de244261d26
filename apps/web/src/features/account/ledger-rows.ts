// How the usage history reads: each ledger line as a signed amount of a resource, with why.
import { type LedgerEntry, type LedgerReason, type LedgerResource, RESOURCE_LABELS } from '@ownvoice/shared';
import { formatCount, formatDate } from '../../lib/format';

const REASON_LABELS: Record<LedgerReason, string> = {
  plan: 'Plan',
  plan_upgrade: 'Plan upgrade',
  pack: 'Top-up pack',
  trial: 'Trial',
  admin: 'Granted by an admin',
  starter: 'Starter allowance',
  usage: 'Used',
  refund: 'Given back',
  reversal: 'Payment refunded',
  opening: 'Opening balance',
};

/** The usage resources, and the account's credits (which an admin grants). */
const LEDGER_RESOURCE_LABELS: Record<LedgerResource, string> = { ...RESOURCE_LABELS, credits: 'Credits' };

export interface LedgerRow {
  id: string;
  date: string;
  resource: string;
  /** "+10", "-1", "+2.5 h". */
  amount: string;
  reason: string;
  expires: string;
}

export function ledgerRow(entry: LedgerEntry): LedgerRow {
  const magnitude = formatCount(Math.round(Math.abs(entry.amount) * 100) / 100);
  const unit = entry.resource === 'activationHours' ? ' h' : '';
  return {
    id: entry.id,
    date: formatDate(entry.createdAt),
    resource: LEDGER_RESOURCE_LABELS[entry.resource],
    amount: `${entry.amount < 0 ? '-' : '+'}${magnitude}${unit}`,
    reason: entry.apiKeyName ? `Used by the API key “${entry.apiKeyName}”` : REASON_LABELS[entry.reason],
    expires: entry.expiresAt ? formatDate(entry.expiresAt) : '—',
  };
}
