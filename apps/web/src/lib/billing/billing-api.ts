// The billing calls (/api/plans/*, /api/stripe/*, /api/auth/finish-trial), each checked against
// the shared schema the server answers with.
import {
  type BillingInfo,
  billingInfoSchema,
  billingUserResponseSchema,
  type ChangePlanResponse,
  type CheckoutResponse,
  changePlanResponseSchema,
  checkoutResponseSchema,
  type LedgerEntry,
  ledgerResponseSchema,
  type PackId,
  type PayNowCheckoutRequest,
  type PlanSelection,
  packCheckoutMetadata,
  prioritySupportLinkSchema,
  type User,
} from '@ownvoice/shared';
import { api } from '../api';
import { isApiError } from '../api-error';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export const fetchBillingInfo = (signal?: AbortSignal): Promise<BillingInfo> =>
  api.get('/plans/billing', { schema: billingInfoSchema, ...withSignal(signal) });

/** Pay later: save a card with the provider; the trial starts once it is saved. */
export const startPayLaterSetup = (): Promise<CheckoutResponse> =>
  api.post('/stripe/onboarding/pay-later/setup-session', undefined, { schema: checkoutResponseSchema });

/**
 * Pay now at onboarding: a first plan checkout, with the 15%-for-life discount when `payNowPromo`
 * (only while the account may have it: the server refuses the discount otherwise).
 */
export const startPayNowCheckout = (selection: PlanSelection, payNowPromo: boolean): Promise<CheckoutResponse> =>
  api.post('/stripe/onboarding/pay-now/plan-checkout', { ...selection, payNowPromo } satisfies PayNowCheckoutRequest, {
    schema: checkoutResponseSchema,
  });

/** A first subscription (answered with a checkout) or a change to the existing one. */
export const changePlan = (selection: PlanSelection): Promise<ChangePlanResponse> =>
  api.post('/stripe/change-plan', selection, { schema: changePlanResponseSchema });

/** One payment for one pack, or for several an action needs together (the first is the one asked for). */
export const startPackCheckout = ([pack, ...alsoPacks]: readonly [PackId, ...PackId[]]): Promise<CheckoutResponse> =>
  api.post(
    '/stripe/create-checkout-session',
    { metadata: packCheckoutMetadata(pack), ...(alsoPacks.length > 0 ? { alsoPacks } : {}) },
    { schema: checkoutResponseSchema },
  );

const postForUser = async (path: string): Promise<User> =>
  (await api.post(path, undefined, { schema: billingUserResponseSchema })).user;

export const cancelSubscription = (): Promise<User> => postForUser('/stripe/cancel-subscription');
export const reactivateSubscription = (): Promise<User> => postForUser('/stripe/reactivate-subscription');
export const finishTrial = (): Promise<User> => postForUser('/auth/finish-trial');

/** The priority support booking link; null when the server refuses it (not on Virtuoso). */
export async function fetchPrioritySupportLink(signal?: AbortSignal): Promise<string | null> {
  try {
    return (await api.get('/plans/priority-support-link', { schema: prioritySupportLinkSchema, ...withSignal(signal) }))
      .url;
  } catch (error) {
    if (isApiError(error) && error.status === 403) return null;
    throw error;
  }
}

export const fetchLedger = async (signal?: AbortSignal): Promise<LedgerEntry[]> =>
  (await api.get('/plans/ledger', { schema: ledgerResponseSchema, ...withSignal(signal) })).entries;
