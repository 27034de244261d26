// Route schemas of /api/stripe and /api/auth/finish-trial: request rules and answers from
// @ownvoice/shared (billing/api.ts), the same ones the plans page uses.
import {
  apiErrorBodySchema,
  billingUserResponseSchema,
  changePlanRequestSchema,
  changePlanResponseSchema,
  checkoutResponseSchema,
  packCheckoutRequestSchema,
  payNowCheckoutRequestSchema,
} from '@ownvoice/shared';
import { z } from 'zod';

const errorResponses = {
  400: apiErrorBodySchema,
  401: apiErrorBodySchema,
  403: apiErrorBodySchema,
  404: apiErrorBodySchema,
  402: apiErrorBodySchema,
  409: apiErrorBodySchema,
  502: apiErrorBodySchema,
  503: apiErrorBodySchema,
};

export const trialSetupSchema = { response: { 200: checkoutResponseSchema, ...errorResponses } };
export const payNowCheckoutSchema = {
  body: payNowCheckoutRequestSchema,
  response: { 200: checkoutResponseSchema, ...errorResponses },
};
export const changePlanSchema = {
  body: changePlanRequestSchema,
  response: { 200: changePlanResponseSchema, ...errorResponses },
};
export const packCheckoutSchema = {
  body: packCheckoutRequestSchema,
  response: { 200: checkoutResponseSchema, ...errorResponses },
};
export const subscriptionActionSchema = { response: { 200: billingUserResponseSchema, ...errorResponses } };
export const webhookSchema = { response: { 200: z.object({ received: z.literal(true) }), ...errorResponses } };
