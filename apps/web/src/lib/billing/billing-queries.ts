// The billing reads as TanStack queries, with their cache keys. Shared because the plans pages,
// the landing page, the purchase modal, the dashboard and the account screen read them.
import { isPaidPlanName, PLANS, type PlanName } from '@ownvoice/shared';
import { useQuery } from '@tanstack/react-query';
import { fetchBillingInfo, fetchLedger, fetchPrioritySupportLink } from './billing-api';
import { type BillingAvailability, billingAvailability } from './billing-availability';

export const billingKeys = {
  info: ['billing', 'info'] as const,
  prioritySupport: ['billing', 'priority-support'] as const,
  ledger: ['billing', 'ledger'] as const,
};

/**
 * Whether this server sells plans; the provider does not change while the app runs, so it is read
 * once. `enabled: false` reads only what an earlier page fetched (the purchase modal while closed).
 */
export function useBillingAvailability({ enabled = true }: { enabled?: boolean } = {}): BillingAvailability {
  return billingAvailability(useBillingInfo({ enabled }));
}

/** Which provider this server sells through (the admin console rehearses disputes on the offline one). */
export const useBillingInfo = ({ enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({
    queryKey: billingKeys.info,
    queryFn: ({ signal }) => fetchBillingInfo(signal),
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });

/** Plans whose catalogue entry includes priority support; others are not asked (the server says 403). */
export const offersPrioritySupport = (plan: PlanName): boolean => isPaidPlanName(plan) && PLANS[plan].prioritySupport;

/** The priority support booking link, or null when there is none to show. */
export function usePrioritySupportLink(plan: PlanName): string | null {
  const query = useQuery({
    queryKey: billingKeys.prioritySupport,
    queryFn: ({ signal }) => fetchPrioritySupportLink(signal),
    enabled: offersPrioritySupport(plan),
    staleTime: 5 * 60_000,
  });
  return offersPrioritySupport(plan) ? (query.data ?? null) : null;
}

export function useLedger(enabled: boolean) {
  return useQuery({ queryKey: billingKeys.ledger, queryFn: ({ signal }) => fetchLedger(signal), enabled });
}
