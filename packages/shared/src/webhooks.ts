// Webhooks: the account's endpoints told, by a signed POST, when a Voice's training ends. Made and
// managed by the signed-in browser only, with the password again (as API keys are); each delivery
// is logged for its owner to read and replay.
import { z } from 'zod';
import { ID_PATTERN } from './constants.js';
import { loginCodeSchema } from './validation/auth.js';
import { currentPasswordSchema } from './validation/email.js';

export const WEBHOOK_EVENTS = [
  'voice.training.succeeded',
  'voice.training.failed',
  'voice.training.cancelled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'voice.training.succeeded': 'A training succeeded',
  'voice.training.failed': 'A training failed',
  'voice.training.cancelled': 'A training was cancelled',
};

/** Every secret starts so, as Stripe's do. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The header a delivery is signed in: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'OwnVoice-Signature';
export const WEBHOOKS_MAX = 10;
export const WEBHOOK_URL_MAX = 2000;
/** Attempts per delivery, the first included. */
export const WEBHOOK_MAX_ATTEMPTS = 6;

export const WEBHOOK_MESSAGES = {
  urlInvalid: 'Give the full address of your endpoint, starting with https:// (or http://)',
  passwordWhy: 'A webhook tells another server about your Voices, so adding one needs your password.',
} as const;

const webhookUrlSchema = z
  .string({ error: WEBHOOK_MESSAGES.urlInvalid })
  .trim()
  .max(WEBHOOK_URL_MAX, `An endpoint's address is at most ${WEBHOOK_URL_MAX} characters long`)
  // http(s), a host (no user:password@), an optional port, then any path; the server parses it
  // again and checks where the host resolves (services/webhook-target.ts).
  .regex(/^https?:\/\/[^\s/?#@]+(?::\d{1,5})?(?:[/?#]\S*)?$/i, WEBHOOK_MESSAGES.urlInvalid);

/** POST /api/auth/webhooks: the password again (and a code when two-factor is on). */
export const createWebhookRequestSchema = z.object({
  url: webhookUrlSchema,
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, 'Choose at least one event to be told of')
    .refine((events) => new Set(events).size === events.length, 'Each event once'),
  currentPassword: currentPasswordSchema,
  mfaToken: loginCodeSchema.optional(),
});
export type CreateWebhookRequest = z.input<typeof createWebhookRequestSchema>;

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** The secret's first characters ("whsec_3fQk…"); the rest is never shown again. */
  shown: z.string(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookListSchema = z.object({ webhooks: z.array(webhookEndpointSchema) });
/** The answer to adding an endpoint: its signing secret, this once. */
export const createdWebhookSchema = z.object({ webhook: webhookEndpointSchema, secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookIdParamsSchema = z.object({ id: z.string().regex(ID_PATTERN, 'must be a webhook id') });
export const webhookDeliveryParamsSchema = webhookIdParamsSchema.extend({
  deliveryId: z.string().regex(ID_PATTERN, 'must be a delivery id'),
});

/** What a delivery's body is: `{ id, type, createdAt, data: { voice } }`. */
export const webhookEventSchema = z.object({
  id: z.string(),
  type: z.enum(WEBHOOK_EVENTS),
  createdAt: z.string(),
  data: z.object({ voice: z.object({ id: z.string(), name: z.string(), status: z.string() }) }),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.enum(WEBHOOK_EVENTS),
  createdAt: z.string(),
  attempts: z.number().int(),
  /** The endpoint's last HTTP status; null before an answer came. */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** When it is tried next; null once delivered or given up. */
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });
