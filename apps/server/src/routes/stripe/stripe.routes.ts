// /api/stripe: checkouts, plan changes and the subscription, over BillingService; and
// /api/auth/finish-trial. The webhook has its own file (its body must stay raw).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { originOf } from '../origin.js';
import {
  changePlanSchema,
  packCheckoutSchema,
  payNowCheckoutSchema,
  subscriptionActionSchema,
  trialSetupSchema,
} from './stripe.schemas.js';

export async function stripeRoutes(app: FastifyInstance, { billing, users }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: app.requireUser };

  r.post('/stripe/onboarding/pay-later/setup-session', { schema: trialSetupSchema, ...signedIn }, async (request) =>
    billing.startTrialSetup(authOf(request).user, originOf(request)),
  );

  r.post('/stripe/onboarding/pay-now/plan-checkout', { schema: payNowCheckoutSchema, ...signedIn }, async (request) =>
    billing.startPayNowCheckout(authOf(request).user, request.body, originOf(request)),
  );

  r.post('/stripe/change-plan', { schema: changePlanSchema, ...signedIn }, async (request) =>
    billing.changePlan(authOf(request).user, request.body, originOf(request)),
  );

  r.post('/stripe/create-checkout-session', { schema: packCheckoutSchema, ...signedIn }, async (request) =>
    billing.startPackCheckout(
      authOf(request).user,
      [request.body.metadata.pack, ...(request.body.alsoPacks ?? [])],
      originOf(request),
    ),
  );

  r.post('/stripe/cancel-subscription', { schema: subscriptionActionSchema, ...signedIn }, async (request) => ({
    user: await users.view(await billing.cancel(authOf(request).user)),
  }));

  r.post('/stripe/reactivate-subscription', { schema: subscriptionActionSchema, ...signedIn }, async (request) => ({
    user: await users.view(await billing.reactivate(authOf(request).user)),
  }));

  r.post('/auth/finish-trial', { schema: subscriptionActionSchema, ...signedIn }, async (request) => ({
    user: await users.view(await billing.finishTrial(authOf(request).user)),
  }));
}
