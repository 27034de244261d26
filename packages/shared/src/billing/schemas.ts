// What the billing API will accept: a plan that can be bought, a billing cycle, a pack.
import { z } from 'zod';
import { BILLING_CYCLES } from '../constants.js';
import { PACK_IDS, PAID_PLAN_NAMES } from './catalog.js';

export const paidPlanNameSchema = z.enum(PAID_PLAN_NAMES);
export const billingCycleSchema = z.enum(BILLING_CYCLES);
export const packIdSchema = z.enum(PACK_IDS);
export const planSelectionSchema = z.object({ plan: paidPlanNameSchema, billingCycle: billingCycleSchema });
