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
const LEDGER_RESOURCE_LABELS: Record<LedgerResource, string> = { ...RESOURCE_LABELS, credits: 'Credits*' };

/**
 * What the starred "Credits*" lines are, said under the table whenever one shows: a balance only
 * an admin adds (docs/decisions/0015-admin-actions-and-activity.md), which nothing spends yet.
 */
export const CREDITS_NOTE =
  '* Credits are a balance an OwnVoice admin adds to your account, for example to make up for a problem. Nothing is paid with them yet: what you use comes from your plan, your trial and the packs you buy.';

/** Whether the history holds a credits line, and so needs the note that says what credits are. */
export const needsCreditsNote = (entries: readonly LedgerEntry[]): boolean =>
  entries.some((entry) => entry.resource === 'credits');

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
