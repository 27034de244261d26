// Shapes of the admin calls: the overview (counts and 30 days of daily figures), the user list,
// the activity log, invitations, and what each admin action answers.
import { z } from 'zod';
import { healthResponseSchema, userSchema } from './api.js';
import { DISPUTE_STATUSES } from './billing/disputes.js';
import { ID_PATTERN, ROLES } from './constants.js';
import { newPasswordSchema, usernameSchema } from './validation/auth.js';
import { cleanString } from './validation/text.js';

/** Users who logged in within this many days count as active in the overview. */
export const ADMIN_ACTIVE_DAYS = 30;
/** The user list's page size: the console shows ten users a page. */
export const ADMIN_PAGE_SIZE = 10;
/** The pagination shows at most this many page buttons. */
export const ADMIN_PAGE_BUTTONS = 5;
/** The overview's charts cover this many days, today included. */
export const ADMIN_CHART_DAYS = 30;
/** An admin invitation is good for this long, and once. */
export const INVITATION_TTL_MS = 24 * 60 * 60 * 1000;
/** An activity page holds this many events. */
export const ACTIVITY_PAGE_SIZE = 20;
/** The account page shows the user's latest security events, this many. */
export const OWN_ACTIVITY_LIMIT = 10;

/** One day of the overview charts (UTC days, `YYYY-MM-DD`). */
export const adminDaySchema = z.object({
  date: z.string(),
  signUps: z.number(),
  voicesTrained: z.number(),
  /** Waking hours used that day, to a tenth of an hour. */
  wakingHours: z.number(),
});
export type AdminDay = z.infer<typeof adminDaySchema>;

export const adminOverviewSchema = z.object({
  users: z.object({
    total: z.number(),
    admins: z.number(),
    regular: z.number(),
    active: z.number(),
    mfaEnabled: z.number(),
  }),
  credits: z.object({ total: z.number() }),
  /** Oldest first, ADMIN_CHART_DAYS days ending today; days without activity are zeros. */
  daily: z.array(adminDaySchema),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

export const adminUsersQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(ADMIN_PAGE_SIZE),
  /** Part of a username or e-mail, any case. */
  search: cleanString().pipe(z.string().max(100)).optional(),
  role: z.enum(ROLES).optional(),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

export const paginationSchema = z.object({ page: z.number(), pages: z.number(), total: z.number(), limit: z.number() });
export type Pagination = z.infer<typeof paginationSchema>;

/** The pagination of page `page` of `total` items, `limit` a page; an empty list is one empty page. */
export const paginationOf = (page: number, limit: number, total: number): Pagination => ({
  page,
  pages: Math.max(1, Math.ceil(total / limit)),
  total,
  limit,
});

export const adminUsersResponseSchema = z.object({
  data: z.object({ users: z.array(userSchema), pagination: paginationSchema }),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const userIdParamsSchema = z.object({ id: z.string().regex(ID_PATTERN, 'must be a user id') });

/** What a role change, a credit grant or a limits edit answers: the user as the list shows them. */
export const adminUserResponseSchema = z.object({ data: z.object({ user: userSchema }) });
export type AdminUserResponse = z.infer<typeof adminUserResponseSchema>;

export const adminDeleteResponseSchema = z.object({ data: z.object({ id: z.string() }) });

/** GET/DELETE /api/admin/confirmation: until when this session's admin actions need no code (null: the next needs one). */
export const adminConfirmationResponseSchema = z.object({ data: z.object({ confirmedUntil: z.string().nullable() }) });
export type AdminConfirmation = z.infer<typeof adminConfirmationResponseSchema>['data'];

// ---- The activity log -------------------------------------------------------------------------

/** security: the user's own sign-ins and account changes; admin: an admin acted; billing: payments. */
export const ACTIVITY_KINDS = ['security', 'admin', 'billing'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** Every action the log knows, with its kind and how the console names it. */
export const ACTIVITY_ACTIONS = {
  signed_up: { kind: 'security', label: 'Signed up' },
  logged_in: { kind: 'security', label: 'Logged in' },
  login_failed: { kind: 'security', label: 'Failed login' },
  account_locked: { kind: 'security', label: 'Account locked' },
  mfa_enabled: { kind: 'security', label: 'Two-factor turned on' },
  mfa_disabled: { kind: 'security', label: 'Two-factor turned off' },
  account_deleted: { kind: 'security', label: 'Account deleted' },
  invitation_accepted: { kind: 'security', label: 'Admin invitation accepted' },
  password_reset_requested: { kind: 'security', label: 'Password reset asked for' },
  password_reset: { kind: 'security', label: 'Password reset' },
  password_changed: { kind: 'security', label: 'Password changed' },
  email_verified: { kind: 'security', label: 'Address confirmed' },
  email_change_requested: { kind: 'security', label: 'Change of address asked for' },
  email_changed: { kind: 'security', label: 'Address changed' },
  notices_changed: { kind: 'security', label: 'E-mail notices changed' },
  role_changed: { kind: 'admin', label: 'Role changed' },
  user_deleted: { kind: 'admin', label: 'User deleted' },
  credits_granted: { kind: 'admin', label: 'Credits granted' },
  limits_changed: { kind: 'admin', label: 'Limits changed' },
  admin_invited: { kind: 'admin', label: 'Admin invited' },
  invitation_revoked: { kind: 'admin', label: 'Admin invitation revoked' },
  trial_started: { kind: 'billing', label: 'Trial started' },
  plan_paid: { kind: 'billing', label: 'Plan paid' },
  pack_bought: { kind: 'billing', label: 'Pack bought' },
  plan_changed: { kind: 'billing', label: 'Plan changed' },
  subscription_canceled: { kind: 'billing', label: 'Subscription cancelled' },
  subscription_reactivated: { kind: 'billing', label: 'Subscription reactivated' },
  trial_finished: { kind: 'billing', label: 'Trial finished early' },
  trial_refused: { kind: 'billing', label: 'Trial refused' },
  trial_ended_unpaid: { kind: 'billing', label: 'Trial ended unpaid' },
  payment_failed: { kind: 'billing', label: 'Payment failed' },
  payment_fixed: { kind: 'billing', label: 'Payment made' },
  subscription_ended: { kind: 'billing', label: 'Subscription ended' },
  subscription_rejected: { kind: 'billing', label: 'Second subscription refunded' },
  payment_refunded: { kind: 'billing', label: 'Payment refunded' },
  payment_disputed: { kind: 'billing', label: 'Payment disputed' },
  dispute_rehearsed: { kind: 'admin', label: 'Dispute rehearsed' },
  billing_reconciled: { kind: 'admin', label: 'Billing reconciled' },
  mail_retried: { kind: 'admin', label: 'E-mail sent again' },
  mail_viewed: { kind: 'admin', label: 'E-mail read in the console' },
} as const satisfies Record<string, { kind: ActivityKind; label: string }>;
export type ActivityAction = keyof typeof ACTIVITY_ACTIONS;
export const ACTIVITY_ACTION_NAMES = Object.keys(ACTIVITY_ACTIONS) as [ActivityAction, ...ActivityAction[]];

export const activitySchema = z.object({
  id: z.string(),
  _id: z.string(),
  kind: z.enum(ACTIVITY_KINDS),
  action: z.enum(ACTIVITY_ACTION_NAMES),
  /** One line a person reads: "Role changed from User to Admin". */
  details: z.string(),
  /** Who acted: the user themself, an admin, or nobody (the payment provider, the system). */
  actor: z.object({ id: z.string(), username: z.string().nullable() }).nullable(),
  /** Whose account the event is about. */
  userId: z.string(),
  /** An admin action's values before and after; null otherwise. */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

export const activitiesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(ACTIVITY_PAGE_SIZE),
  kind: z.enum(ACTIVITY_KINDS).optional(),
});
export type ActivitiesQuery = z.input<typeof activitiesQuerySchema>;

/** GET /api/admin/users/:id/activities: newest first, paged. */
export const activitiesResponseSchema = z.object({
  data: z.object({ activities: z.array(activitySchema), pagination: paginationSchema }),
});
export type ActivitiesResponse = z.infer<typeof activitiesResponseSchema>;

/** GET /api/auth/activities: the signed-in user's latest security events. */
export const ownActivitiesResponseSchema = z.object({ data: z.object({ activities: z.array(activitySchema) }) });

// ---- Invitations ------------------------------------------------------------------------------

export const inviteResponseSchema = z.object({
  data: z.object({
    invitationUrl: z.string(),
    expiresAt: z.string(),
    /** The invitation was queued as e-mail to the invitee; false when it could not be (pass the link on). */
    mailed: z.boolean(),
  }),
});
export type InviteResponse = z.infer<typeof inviteResponseSchema>;

/**
 * GET /api/admin/invitations: the invitations still waiting to be accepted, newest first. One dies
 * when it is used, revoked, out of time, or its inviter loses the right to send it.
 */
export const pendingInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  invitedBy: z.object({ id: z.string(), username: z.string() }).nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;
export const invitationsResponseSchema = z.object({
  data: z.object({ invitations: z.array(pendingInvitationSchema) }),
});
export const invitationIdParamsSchema = z.object({ id: z.string().regex(ID_PATTERN, 'must be an invitation id') });

/** The secret part of an invitation link. */
export const invitationTokenParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{32,64}$/) });

/** GET /api/invitations/:token: what the invitation page shows before it is accepted. */
export const invitationInfoSchema = z.object({
  email: z.string(),
  role: z.enum(ROLES),
  expiresAt: z.string(),
  /** An account with this e-mail exists: accepting needs signing in to it, not signing up. */
  accountExists: z.boolean(),
});
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

/**
 * POST /api/invitations/:token/accept. A new address signs up with a username and password; an
 * existing account sends nothing and must be signed in as that address.
 */
export const acceptInvitationBodySchema = z.union([
  z.object({ username: usernameSchema, password: newPasswordSchema }),
  z.object({}).strict(),
]);
export type AcceptInvitationBody = z.input<typeof acceptInvitationBodySchema>;

// ---- Payments and billing's health, for the console ---------------------------------------

/** A payment received, as the console lists a user's (newest first). */
export const adminPaymentSchema = z.object({
  id: z.string(),
  description: z.string(),
  amountCents: z.number().int(),
  refundedCents: z.number().int(),
  disputeStatus: z.enum(DISPUTE_STATUSES).nullable(),
  /** `granted`: it bought what it says; `rejected`: nothing was granted for it and it is refunded. */
  outcome: z.enum(['granted', 'rejected']),
  paidAt: z.string(),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;

export const adminPaymentsResponseSchema = z.object({ data: z.object({ payments: z.array(adminPaymentSchema) }) });

export const adminPaymentParamsSchema = userIdParamsSchema.extend({
  paymentId: z.string().regex(/^[A-Za-z0-9_]{1,200}$/, 'must be a payment id'),
});

/** A refund by an admin: all that is left of the payment, or `amountCents` of it. */
export const adminRefundBodySchema = z
  .object({
    amountCents: z.number().int().positive().optional(),
    /** Also end the person's subscription now (as when a refund is for leaving). */
    endSubscription: z.boolean().default(false),
  })
  .strict();
export type AdminRefundBody = z.infer<typeof adminRefundBodySchema>;

export const adminRefundResponseSchema = z.object({
  data: z.object({ payment: adminPaymentSchema, user: userSchema }),
});

/**
 * A dispute an admin rehearses on the offline test provider, as a bank would move it (decision
 * 35): an inquiry or a chargeback opened, an inquiry escalated or closed, a chargeback decided.
 */
export const DISPUTE_REHEARSAL_STEPS = ['inquiry', 'chargeback', 'escalate', 'close_inquiry', 'won', 'lost'] as const;
export type DisputeRehearsalStep = (typeof DISPUTE_REHEARSAL_STEPS)[number];
export const adminDisputeRehearsalBodySchema = z.object({ step: z.enum(DISPUTE_REHEARSAL_STEPS) }).strict();
export type AdminDisputeRehearsalBody = z.infer<typeof adminDisputeRehearsalBodySchema>;
/** The payment and the person as they are after the step, as a refund answers. */
export const adminDisputeRehearsalResponseSchema = adminRefundResponseSchema;

export const reconciliationSchema = z.object({
  id: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  checked: z.number().int(),
  repaired: z.number().int(),
  error: z.string().nullable(),
  requestedBy: z.string().nullable(),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

export const adminBillingStatusSchema = z.object({
  data: z.object({
    health: healthResponseSchema.shape.billing,
    lastReconciliation: reconciliationSchema.nullable(),
    /** Refunds, cancellations and closed checkouts still to be done at the provider. */
    pendingActions: z.number().int(),
  }),
});
export type AdminBillingStatus = z.infer<typeof adminBillingStatusSchema>['data'];

export const reconcileResponseSchema = z.object({ data: reconciliationSchema });

export const MAIL_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** One message in the admin console's outbox: where it went and whether it got there. */
export const adminMailMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  kind: z.string(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /**
   * Its text can be opened (GET /api/admin/mail/:id): only on a server without SMTP_URL, where
   * messages never leave the machine; elsewhere the text stays in the mail.
   */
  readable: z.boolean(),
});
export type AdminMailMessage = z.infer<typeof adminMailMessageSchema>;

/** GET /api/admin/mail: where messages go (an SMTP server, or the data folder's outbox) and the newest ones. */
export const adminMailResponseSchema = z.object({
  data: z.object({
    destination: z.string(),
    /** True without SMTP_URL: messages are files in the data folder, and the console opens their text. */
    outbox: z.boolean(),
    failed: z.number().int(),
    messages: z.array(adminMailMessageSchema),
  }),
});
export type AdminMailResponse = z.infer<typeof adminMailResponseSchema>;

/** What stands in a shown message for each key of its links (a reset's token, an invitation's). */
export const MASKED_KEY = '••••••••';

/**
 * GET /api/admin/mail/:id: one message's plain text, each key in its links masked (MASKED_KEY):
 * a link is a key to an account, and any admin may open this. Whoever runs the server finds the
 * whole message in `file`. Opening it is recorded in the log of the person it was sent to.
 */
export const adminMailTextResponseSchema = z.object({
  data: z.object({
    text: z.string(),
    /** Some key was masked. */
    masked: z.boolean(),
    /** Where the outbox writes the whole message, on the server. */
    file: z.string(),
  }),
});
export type AdminMailText = z.infer<typeof adminMailTextResponseSchema>['data'];

/** GET /api/admin/mail/:id and POST /api/admin/mail/:id/retry: the message's id (a UUID). */
export const adminMailParamsSchema = z.object({ id: z.uuid('must be a message id') });

/** What a retry answers: the message, queued again with its attempts reset. */
export const adminMailRetryResponseSchema = z.object({ data: z.object({ message: adminMailMessageSchema }) });
export type AdminMailRetryResponse = z.infer<typeof adminMailRetryResponseSchema>;
