// What a paid invoice grants, read from its lines and never from why it was made
// (docs/decisions/0020, 20.2): each line that charged a period of a plan grants one period of that
// plan, counted from the line's period start; the pay-later trial's day is covered by the trial's
// own grant; anything else grants nothing and is reported for the operator. A line that charged
// less than the plan's price grants in proportion, rounded down: never more than was paid for.
import {
  type PaidPlanName,
  PLANS,
  planGrant,
  planPriceCents,
  planWithCycle,
  type TrancheGrant,
} from '@ownvoice/shared';
import type { InvoiceFacts, PlanPrice } from '../../payments/provider.js';

export interface InvoiceGrant {
  tranches: TrancheGrant[];
  /** The plan the last plan line paid for (what the account now has been granted). */
  plan: PlanPrice | null;
  /** The grant includes the plan's one-time resources (the minimum plan's training). */
  includesOneTime: boolean;
  /** Lines that granted less than a full period, or nothing: what the operator should look at. */
  anomalies: string[];
  /** What the invoice paid for, for people and the payments table. */
  description: string;
}

export function invoiceGrant(
  invoice: InvoiceFacts,
  { oneTimeAlreadyGranted }: { oneTimeAlreadyGranted: boolean },
): InvoiceGrant {
  const tranches: TrancheGrant[] = [];
  const anomalies: string[] = [];
  const bought: string[] = [];
  let plan: PlanPrice | null = null;
  let oneTimeGiven = oneTimeAlreadyGranted;
  let includesOneTime = false;
  // The money is what the invoice totals after any discount: its lines are scaled to it.
  const charged = invoice.lines.reduce((sum, line) => sum + Math.max(0, line.amountCents), 0);
  const paidShare = charged > 0 ? Math.min(1, invoice.totalCents / charged) : 0;
  for (const line of invoice.lines) {
    if (line.kind === 'trial_day') {
      bought.push('the trial day');
      continue;
    }
    if (line.kind !== 'plan' || !line.plan || line.proration) {
      if (line.amountCents !== 0) {
        anomalies.push(
          `invoice ${invoice.id}: "${line.description}" (${line.amountCents} cents) is not a period of a plan; it granted nothing`,
        );
      }
      continue;
    }
    const price = line.priceCents ?? planPriceCents(line.plan.plan, line.plan.billingCycle, line.plan);
    const share = price > 0 ? Math.min(1, (line.amountCents * paidShare) / price) : 0;
    if (share < 1) {
      anomalies.push(
        `invoice ${invoice.id}: ${planWithCycle(line.plan.plan, line.plan.billingCycle)} was charged ${Math.round(line.amountCents * paidShare)} of ${price} cents; it granted that share of a period`,
      );
    }
    const full = planGrant(line.plan.plan, line.plan.billingCycle, line.periodStart, {
      oneTimeAlreadyGranted: oneTimeGiven,
    });
    for (const tranche of full.tranches) {
      const amount = Math.floor(tranche.amount * share);
      if (amount > 0) tranches.push({ ...tranche, amount });
    }
    if (!oneTimeGiven && hasOneTime(line.plan.plan) && share > 0) {
      oneTimeGiven = true;
      includesOneTime = true;
    }
    plan = line.plan;
    bought.push(planWithCycle(line.plan.plan, line.plan.billingCycle));
  }
  return { tranches, plan, includesOneTime, anomalies, description: bought.join(' and ') || 'nothing OwnVoice sells' };
}

const hasOneTime = (plan: PaidPlanName) => Object.keys(PLANS[plan].once).length > 0;
