// The authorization matrix: every /api route, called by an anonymous visitor, the owner of a
// Voice, another user, an admin without two-factor and the owner's API key (every scope), answers
// each exactly as it should (401, 403 or 404 where refused), and a refused call changes nothing in
// the database. A route added without a row here fails the test, so no route escapes the matrix;
// a key is refused everywhere a row does not say otherwise.
import { newInteractiveState } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activities,
  invitations,
  ledgerEntries,
  mfaBackupCodes,
  sessions,
  usageTranches,
  users,
  voices,
} from '../db/schema.js';
import { newId } from '../ids.js';
import { createTestContext, type MultipartForm, type TestClient, type TestContext } from '../test/test-app.js';

let ctx: TestContext;
let anon: TestClient;
let owner: TestClient;
let other: TestClient;
let adminNoMfa: TestClient;
/** The owner's API key, with every scope. */
let ownerKey: TestClient;
let ownerId: string;
/** The owner's private Voice, and a public one of theirs. */
let privateId: string;
let publicId: string;

type Who = 'anon' | 'owner' | 'other' | 'admin' | 'key';
const WHO: Who[] = ['anon', 'owner', 'other', 'admin', 'key'];
const clientOf = (who: Who) => ({ anon, owner, other, admin: adminNoMfa, key: ownerKey })[who];

/** What a caller gets: a status and, for refusals, the error code. */
type Answer = { status: number; code?: string };
const UNAUTHENTICATED: Answer = { status: 401, code: 'UNAUTHENTICATED' };
const NOT_FOUND: Answer = { status: 404, code: 'NOT_FOUND' };
const FORBIDDEN: Answer = { status: 403, code: 'FORBIDDEN' };
const MFA_REQUIRED: Answer = { status: 403, code: 'MFA_REQUIRED' };
const OK: Answer = { status: 200 };
const NO_CONTENT: Answer = { status: 204 };
const NO_SUBSCRIPTION: Answer = { status: 400, code: 'NO_SUBSCRIPTION' };
const KEY_REFUSED: Answer = { status: 403, code: 'API_KEY_NOT_ALLOWED' };

interface Row {
  /** The request to send, built once the fixtures exist. */
  send: (client: TestClient) => Promise<{ statusCode: number; json: () => { code?: string } }>;
  /** The answer each caller must get; `undefined` leaves that caller out (it would act on itself). */
  expect: Partial<Record<Who, Answer>>;
}

/** A JSON request; a body given as a function is built when sent (after the fixtures exist). */
const json =
  (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: () => string, body?: unknown) => (c: TestClient) =>
    c.request(method, url(), method === 'GET' ? undefined : ((typeof body === 'function' ? body() : body) ?? {}));
const form = (url: string, f: () => MultipartForm) => (c: TestClient) => c.upload(url, f());
/** A page (HTML): its status is the answer. */
const page = (url: string) => async (c: TestClient) => {
  const res = await c.get(url);
  return { statusCode: res.statusCode, json: () => ({}) };
};

/**
 * Self-service routes: anyone signed in may call them (on their own account); visitors may not,
 * nor an API key unless the answers say so (`key: undefined` leaves it out, as for the owner).
 */
const signedIn = (send: Row['send'], answers: Partial<Record<Who, Answer | undefined>> = {}): Row => ({
  send,
  expect: { anon: UNAUTHENTICATED, key: KEY_REFUSED, ...answers },
});
/**
 * A route on the owner's private Voice: invisible (404) to everyone but its owner; the owner's
 * key is refused unless `keyAnswer` says otherwise (null leaves it out: it would act).
 */
const onPrivateVoice = (send: Row['send'], ownerAnswer?: Answer, keyAnswer: Answer | null = KEY_REFUSED): Row => ({
  send,
  expect: {
    anon: UNAUTHENTICATED,
    other: NOT_FOUND,
    admin: NOT_FOUND,
    ...(ownerAnswer ? { owner: ownerAnswer } : {}),
    ...(keyAnswer ? { key: keyAnswer } : {}),
  },
});
/** Admin console routes: visitors 401, users 403, admins without two-factor 403 MFA_REQUIRED, keys 403. */
const adminOnly = (send: Row['send']): Row => ({
  send,
  expect: { anon: UNAUTHENTICATED, owner: FORBIDDEN, other: FORBIDDEN, admin: MFA_REQUIRED, key: KEY_REFUSED },
});
/** /v1 routes: only the owner's API key gets in; every session and a visitor are 401. */
const keyOnly = (send: Row['send'], keyAnswer: Answer): Row => ({
  send,
  expect: {
    anon: UNAUTHENTICATED,
    owner: UNAUTHENTICATED,
    other: UNAUTHENTICATED,
    admin: UNAUTHENTICATED,
    key: keyAnswer,
  },
});
const everyone = (send: Row['send']): Row => ({
  send,
  expect: { anon: OK, owner: OK, other: OK, admin: OK, key: OK },
});

const voiceUrl =
  (suffix = '') =>
  () =>
    `/api/loras/${privateId}${suffix}`;

const MATRIX: Record<string, Row> = {
  'GET /api/health': everyone(json('GET', () => '/api/health')),
  'GET /api/csrf-token': everyone(json('GET', () => '/api/csrf-token')),
  'GET /api/public/stats': everyone(json('GET', () => '/api/public/stats')),
  'GET /api/public/engine': everyone(json('GET', () => '/api/public/engine')),
  'GET /api/public/downloads': everyone(json('GET', () => '/api/public/downloads')),
  // The API's reference and its document describe the API, nothing of anyone's account.
  'GET /api/docs': everyone(page('/api/docs')),
  'GET /api/docs/openapi.json': everyone(json('GET', () => '/api/docs/openapi.json')),
  // Open to everyone; a package this server does not have is a 404 whoever asks.
  'GET /api/public/downloads/:file': {
    send: json('GET', () => '/api/public/downloads/ownvoice_0.0.0_none.deb'),
    expect: { anon: NOT_FOUND, owner: NOT_FOUND, other: NOT_FOUND, admin: NOT_FOUND },
  },
  // Open to visitors by nature; a taken e-mail and wrong credentials are their refusals.
  'POST /api/auth/register': {
    send: json('POST', () => '/api/auth/register', {
      username: 'ownerclone',
      email: 'owner@example.com',
      password: 'Passw0rdOk',
    }),
    expect: { anon: { status: 409, code: 'EMAIL_TAKEN' } },
  },
  'POST /api/auth/login': {
    // An unknown e-mail: a wrong password would (rightly) count towards the owner's lockout.
    send: json('POST', () => '/api/auth/login', { email: 'nobody@example.com', password: 'Wrong-Passw0rd' }),
    expect: { anon: { status: 401, code: 'INVALID_CREDENTIALS' } },
  },
  // Open to anyone by nature (a forgotten password means nobody is signed in): the same answer
  // for any address, and a made-up link is refused for what it is, whoever sends it.
  'POST /api/auth/password/forgot': {
    send: json('POST', () => '/api/auth/password/forgot', { email: 'nobody@example.com' }),
    expect: { anon: { status: 202 }, owner: { status: 202 }, other: { status: 202 }, admin: { status: 202 } },
  },
  'POST /api/auth/password/reset': {
    send: json('POST', () => '/api/auth/password/reset', { token: 'x'.repeat(43), password: 'N3w-Passw0rd-ok' }),
    expect: {
      anon: { status: 400, code: 'RESET_LINK_INVALID' },
      owner: { status: 400, code: 'RESET_LINK_INVALID' },
      other: { status: 400, code: 'RESET_LINK_INVALID' },
      admin: { status: 400, code: 'RESET_LINK_INVALID' },
    },
  },
  'GET /api/auth/me': signedIn(
    json('GET', () => '/api/auth/me'),
    { owner: OK, other: OK, admin: OK },
  ),
  'POST /api/auth/logout': signedIn(json('POST', () => '/api/auth/logout')),
  'PATCH /api/auth/onboarding': signedIn(json('PATCH', () => '/api/auth/onboarding', { step: 'choice' })),
  'POST /api/auth/mfa/setup': signedIn(json('POST', () => '/api/auth/mfa/setup')),
  'POST /api/auth/mfa/verify': signedIn(
    json('POST', () => '/api/auth/mfa/verify', { secret: 'JBSWY3DPEHPK3PXP', token: '123456' }),
  ),
  'POST /api/auth/mfa/disable': signedIn(json('POST', () => '/api/auth/mfa/disable', { mfaToken: '123456' })),
  'DELETE /api/auth/account': signedIn(json('DELETE', () => '/api/auth/account', { password: 'Passw0rdOk' })),
  // The link's token is the credential, whoever opens it: a made-up one is refused for what it is.
  'POST /api/auth/email/verify': {
    send: json('POST', () => '/api/auth/email/verify', { token: 'x'.repeat(43) }),
    expect: {
      ...Object.fromEntries(WHO.map((who) => [who, { status: 400, code: 'EMAIL_LINK_INVALID' }])),
      key: KEY_REFUSED,
    },
  },
  // On the caller's own account only (every account here has confirmed its address).
  'POST /api/auth/email/resend': signedIn(
    json('POST', () => '/api/auth/email/resend'),
    {
      owner: { status: 400, code: 'VALIDATION_ERROR' },
      other: { status: 400, code: 'VALIDATION_ERROR' },
      admin: { status: 400, code: 'VALIDATION_ERROR' },
    },
  ),
  // The owner's own address, which the others may not take: refused after the right password.
  'POST /api/auth/email/change': signedIn(
    json('POST', () => '/api/auth/email/change', { email: 'owner@example.com', currentPassword: 'Passw0rdOk' }),
    {
      owner: { status: 400, code: 'VALIDATION_ERROR' },
      other: { status: 409, code: 'EMAIL_TAKEN' },
      admin: { status: 409, code: 'EMAIL_TAKEN' },
    },
  ),
  // The new password is the current one: refused after the right password, for each caller's own.
  'POST /api/auth/password/change': signedIn(
    json('POST', () => '/api/auth/password/change', { currentPassword: 'Passw0rdOk', password: 'Passw0rdOk' }),
    {
      owner: { status: 400, code: 'VALIDATION_ERROR' },
      other: { status: 400, code: 'VALIDATION_ERROR' },
      admin: { status: 400, code: 'VALIDATION_ERROR' },
    },
  ),
  // A required notice cannot be switched off, whoever asks.
  'PUT /api/auth/notices': signedIn(json('PUT', () => '/api/auth/notices', { muted: ['security'] })),
  'GET /api/loras': signedIn(
    json('GET', () => '/api/loras'),
    { owner: OK, other: OK, admin: OK, key: OK },
  ),
  'GET /api/loras/public': signedIn(
    json('GET', () => '/api/loras/public'),
    { owner: OK, other: OK, admin: OK },
  ),
  // A key with 'training' creates a Voice as its owner would (training-by-key.test.ts).
  'POST /api/loras': signedIn(
    form('/api/loras', () => ({ fields: { name: 'Intruder', text: 'x'.repeat(25_000) } })),
    { key: undefined },
  ),
  'POST /api/loras/count-characters': signedIn(
    form('/api/loras/count-characters', () => ({ files: [{ name: 'a.txt', data: 'hello' }] })),
  ),
  'GET /api/loras/:id': onPrivateVoice(json('GET', voiceUrl()), OK, OK),
  // The training's events: its owner's, by session or key ('voices:read' or 'training').
  'GET /api/loras/:id/training-events': onPrivateVoice(json('GET', voiceUrl('/training-events')), OK, OK),
  // This Voice is trained: nothing to cancel, for its owner and their 'training' key alike.
  'POST /api/loras/:id/cancel-training': onPrivateVoice(
    json('POST', voiceUrl('/cancel-training')),
    { status: 409, code: 'VOICE_NOT_TRAINING' },
    { status: 409, code: 'VOICE_NOT_TRAINING' },
  ),
  'PATCH /api/loras/:id': onPrivateVoice(json('PATCH', voiceUrl(), { name: 'Hijacked', isPublic: true })),
  'DELETE /api/loras/:id': onPrivateVoice(json('DELETE', voiceUrl())),
  'POST /api/loras/:id/activate': onPrivateVoice(json('POST', voiceUrl('/activate'))),
  'POST /api/loras/:id/deactivate': onPrivateVoice(json('POST', voiceUrl('/deactivate'))),
  'POST /api/loras/:id/fork': onPrivateVoice(json('POST', voiceUrl('/fork'))),
  // The owner's key reaches Convert, Create and the edit pass as the owner would (their own tests).
  'POST /api/loras/:id/convert-stream': onPrivateVoice(
    json('POST', voiceUrl('/convert-stream'), () => ({ loraId: privateId, text: 'Some text to convert.' })),
    undefined,
    null,
  ),
  // The owner takes their Voice home (this one has no adapter yet), by session or 'training'
  // key; others do not see it.
  'GET /api/loras/:id/package': onPrivateVoice(
    json('GET', voiceUrl('/package')),
    { status: 400, code: 'VOICE_NOT_READY' },
    { status: 400, code: 'VOICE_NOT_READY' },
  ),
  'GET /api/loras/:id/merged-model': onPrivateVoice(
    json('GET', voiceUrl('/merged-model')),
    { status: 400, code: 'VOICE_NOT_READY' },
    { status: 400, code: 'VOICE_NOT_READY' },
  ),
  // Nothing to import: the body is not a package (415), for a session and a 'training' key alike.
  'POST /api/loras/import': signedIn(
    json('POST', () => '/api/loras/import', { package: 'x' }),
    {
      owner: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      other: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      admin: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      key: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
    },
  ),
  'POST /api/loras/:id/convert': onPrivateVoice(
    json('POST', voiceUrl('/convert'), () => ({ text: 'Some text to convert.' })),
    undefined,
    null,
  ),
  'POST /api/loras/edit-chunk': signedIn(
    json('POST', () => '/api/loras/edit-chunk', { originalChunk: 'a', rephrasedChunk: 'b', chunkIndex: 0 }),
    { key: undefined },
  ),
  // Writing with someone else's private Voice: it is not there for them.
  'POST /api/content/generate-stream': onPrivateVoice(
    form('/api/content/generate-stream', () => ({
      fields: { prompt: 'A note to the neighbours', format: 'free', selectedLora: privateId },
    })),
    undefined,
    null,
  ),
  'POST /api/content/interactive/next': onPrivateVoice(
    json(
      'POST',
      () => '/api/content/interactive/next',
      () => ({
        state: newInteractiveState('short', 'A note to the neighbours', privateId),
        action: 'ask_questions',
      }),
    ),
    undefined,
    null,
  ),
  'GET /api/plans/billing': everyone(json('GET', () => '/api/plans/billing')),
  'GET /api/plans/ledger': signedIn(
    json('GET', () => '/api/plans/ledger'),
    { owner: OK, other: OK, admin: OK },
  ),
  // The booking link comes with the Virtuoso plan, which nobody here has.
  'GET /api/plans/priority-support-link': signedIn(
    json('GET', () => '/api/plans/priority-support-link'),
    {
      owner: FORBIDDEN,
      other: FORBIDDEN,
      admin: FORBIDDEN,
    },
  ),
  // Starting a checkout is for the signed-in (who would then change their own account).
  'POST /api/stripe/onboarding/pay-later/setup-session': signedIn(
    json('POST', () => '/api/stripe/onboarding/pay-later/setup-session'),
  ),
  'POST /api/stripe/onboarding/pay-now/plan-checkout': signedIn(
    json('POST', () => '/api/stripe/onboarding/pay-now/plan-checkout', {
      plan: 'pro',
      billingCycle: 'monthly',
      payNowPromo: true,
    }),
  ),
  'POST /api/stripe/change-plan': signedIn(
    json('POST', () => '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' }),
  ),
  'POST /api/stripe/create-checkout-session': signedIn(
    json('POST', () => '/api/stripe/create-checkout-session', {
      metadata: { pack: 'extra_model', modelsTrained: '1' },
    }),
  ),
  'POST /api/stripe/cancel-subscription': signedIn(
    json('POST', () => '/api/stripe/cancel-subscription'),
    {
      owner: NO_SUBSCRIPTION,
      other: NO_SUBSCRIPTION,
      admin: NO_SUBSCRIPTION,
    },
  ),
  'POST /api/stripe/reactivate-subscription': signedIn(
    json('POST', () => '/api/stripe/reactivate-subscription'),
    {
      owner: NO_SUBSCRIPTION,
      other: NO_SUBSCRIPTION,
      admin: NO_SUBSCRIPTION,
    },
  ),
  'POST /api/auth/finish-trial': signedIn(
    json('POST', () => '/api/auth/finish-trial'),
    {
      owner: { status: 400, code: 'NOT_ON_TRIAL' },
      other: { status: 400, code: 'NOT_ON_TRIAL' },
      admin: { status: 400, code: 'NOT_ON_TRIAL' },
    },
  ),
  // The provider's deliveries: a signature is the only credential, whoever sends it.
  'POST /api/stripe/webhook': {
    send: json('POST', () => '/api/stripe/webhook', { id: 'evt_forged', type: 'checkout.session.completed' }),
    expect: Object.fromEntries(WHO.map((who) => [who, { status: 400, code: 'INVALID_WEBHOOK_SIGNATURE' }])),
  },
  // The test checkout's id is its credential, as with a hosted checkout page.
  'GET /api/offline-checkout/:id': {
    send: json('GET', () => `/api/offline-checkout/cs_offline_${'0'.repeat(24)}`),
    expect: Object.fromEntries(WHO.map((who) => [who, NOT_FOUND])),
  },
  'POST /api/offline-checkout/:id/pay': {
    send: json('POST', () => `/api/offline-checkout/cs_offline_${'0'.repeat(24)}/pay`),
    expect: Object.fromEntries(WHO.map((who) => [who, NOT_FOUND])),
  },
  'POST /api/offline-checkout/:id/cancel': {
    send: json('POST', () => `/api/offline-checkout/cs_offline_${'0'.repeat(24)}/cancel`),
    expect: Object.fromEntries(WHO.map((who) => [who, NOT_FOUND])),
  },
  // The provider's invoice page: the invoice's unguessable id is its credential, as Stripe's is.
  'GET /api/offline-checkout/invoice/:id': {
    send: json('GET', () => `/api/offline-checkout/invoice/in_offline_${'0'.repeat(24)}`),
    expect: Object.fromEntries(WHO.map((who) => [who, NOT_FOUND])),
  },
  'POST /api/offline-checkout/invoice/:id/pay': {
    send: json('POST', () => `/api/offline-checkout/invoice/in_offline_${'0'.repeat(24)}/pay`),
    expect: Object.fromEntries(WHO.map((who) => [who, NOT_FOUND])),
  },
  'GET /api/admin/overview': adminOnly(json('GET', () => '/api/admin/overview')),
  'GET /api/admin/confirmation': adminOnly(json('GET', () => '/api/admin/confirmation')),
  'DELETE /api/admin/confirmation': adminOnly(json('DELETE', () => '/api/admin/confirmation')),
  'GET /api/admin/billing': adminOnly(json('GET', () => '/api/admin/billing')),
  'GET /api/admin/users/:id/payments': adminOnly(json('GET', () => `/api/admin/users/${ownerId}/payments`)),
  'POST /api/admin/users/:id/payments/:paymentId/refund': adminOnly(
    json('POST', () => `/api/admin/users/${ownerId}/payments/in_offline_x/refund`, {}),
  ),
  'POST /api/admin/users/:id/payments/:paymentId/rehearse-dispute': adminOnly(
    json('POST', () => `/api/admin/users/${ownerId}/payments/in_offline_x/rehearse-dispute`, { step: 'inquiry' }),
  ),
  'POST /api/admin/billing/reconcile': adminOnly(json('POST', () => '/api/admin/billing/reconcile')),
  'GET /api/admin/users': adminOnly(json('GET', () => '/api/admin/users')),
  'GET /api/admin/users/:id/activities': adminOnly(json('GET', () => `/api/admin/users/${ownerId}/activities`)),
  // The outbox: its list shows where mail went; reading a message (keys masked, logged) and sending
  // a failed one again need no fresh code.
  'GET /api/admin/mail': adminOnly(json('GET', () => '/api/admin/mail')),
  'GET /api/admin/mail/:id': adminOnly(json('GET', () => '/api/admin/mail/6f1c2b9e-4d3a-4c5b-9a8e-1f2d3c4b5a69')),
  'POST /api/admin/mail/:id/retry': adminOnly(
    json('POST', () => '/api/admin/mail/6f1c2b9e-4d3a-4c5b-9a8e-1f2d3c4b5a69/retry'),
  ),
  // The actions: refused for who the caller is before the second factor is even asked for
  // (admin-actions.test.ts runs the rest of their matrix with two-factor on).
  'PATCH /api/admin/users/:id/role': adminOnly(
    json('PATCH', () => `/api/admin/users/${ownerId}/role`, { role: 'admin' }),
  ),
  'DELETE /api/admin/users/:id': adminOnly(json('DELETE', () => `/api/admin/users/${ownerId}`)),
  'POST /api/admin/plans/grant': adminOnly(
    json(
      'POST',
      () => '/api/admin/plans/grant',
      () => ({ userId: ownerId, amount: 5, reason: 'Goodwill' }),
    ),
  ),
  'PATCH /api/admin/users/:id/limits': adminOnly(
    json('PATCH', () => `/api/admin/users/${ownerId}/limits`, { onboarding: { step: 'tutorial_complete' } }),
  ),
  'POST /api/admin/invite': adminOnly(
    json('POST', () => '/api/admin/invite', { email: 'new@example.com', role: 'admin' }),
  ),
  'GET /api/admin/invitations': adminOnly(json('GET', () => '/api/admin/invitations')),
  'DELETE /api/admin/invitations/:id': adminOnly(json('DELETE', () => `/api/admin/invitations/${ownerId}`)),
  'GET /api/auth/activities': signedIn(
    json('GET', () => '/api/auth/activities'),
    { owner: OK, other: OK, admin: OK },
  ),
  // The link's token is the credential: an unknown one is a 404 whoever asks.
  'GET /api/invitations/:token': {
    send: json('GET', () => `/api/invitations/${'a'.repeat(43)}`),
    expect: Object.fromEntries(WHO.map((who) => [who, NOT_FOUND])),
  },
  'POST /api/invitations/:token/accept': {
    send: json('POST', () => `/api/invitations/${'a'.repeat(43)}/accept`, {}),
    expect: { ...Object.fromEntries(WHO.map((who) => [who, NOT_FOUND])), key: KEY_REFUSED },
  },
  // Keys are made, listed and revoked by a signed-in browser, never by a key.
  'GET /api/auth/api-keys': signedIn(
    json('GET', () => '/api/auth/api-keys'),
    { owner: OK, other: OK, admin: OK },
  ),
  'POST /api/auth/api-keys': signedIn(
    json('POST', () => '/api/auth/api-keys', { name: '', scopes: [] }),
    {
      owner: { status: 400, code: 'VALIDATION_ERROR' },
      other: { status: 400, code: 'VALIDATION_ERROR' },
      admin: { status: 400, code: 'VALIDATION_ERROR' },
    },
  ),
  'DELETE /api/auth/api-keys/:id': signedIn(
    json('DELETE', () => `/api/auth/api-keys/${'0'.repeat(24)}`),
    { owner: NOT_FOUND, other: NOT_FOUND, admin: NOT_FOUND },
  ),
  // Webhooks: the signed-in browser's, as API keys are; an unknown one is 404 to everyone.
  'GET /api/auth/webhooks': signedIn(
    json('GET', () => '/api/auth/webhooks'),
    { owner: OK, other: OK, admin: OK },
  ),
  'POST /api/auth/webhooks': signedIn(
    json('POST', () => '/api/auth/webhooks', { url: '', events: [] }),
    {
      owner: { status: 400, code: 'VALIDATION_ERROR' },
      other: { status: 400, code: 'VALIDATION_ERROR' },
      admin: { status: 400, code: 'VALIDATION_ERROR' },
    },
  ),
  'DELETE /api/auth/webhooks/:id': signedIn(
    json('DELETE', () => `/api/auth/webhooks/${'0'.repeat(24)}`),
    { owner: NOT_FOUND, other: NOT_FOUND, admin: NOT_FOUND },
  ),
  'GET /api/auth/webhooks/:id/deliveries': signedIn(
    json('GET', () => `/api/auth/webhooks/${'0'.repeat(24)}/deliveries`),
    { owner: NOT_FOUND, other: NOT_FOUND, admin: NOT_FOUND },
  ),
  'POST /api/auth/webhooks/:id/deliveries/:deliveryId/replay': signedIn(
    json('POST', () => `/api/auth/webhooks/${'0'.repeat(24)}/deliveries/${'1'.repeat(24)}/replay`),
    { owner: NOT_FOUND, other: NOT_FOUND, admin: NOT_FOUND },
  ),
  // OpenAI's protocol: API keys only (a browser's session is refused like no token at all).
  'GET /v1/models': keyOnly(
    json('GET', () => '/v1/models'),
    OK,
  ),
  // An asleep Voice is no model to retrieve.
  'GET /v1/models/:id': keyOnly(
    json('GET', () => `/v1/models/${privateId}`),
    { status: 404, code: 'model_not_found' },
  ),
  // A browser's preflight carries no key, and is answered for everyone (plugins/cors.ts).
  'OPTIONS /v1/*': {
    send: async (c) => {
      const res = await c.request('OPTIONS', '/v1/chat/completions', undefined, {
        origin: 'https://notes.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      });
      return { statusCode: res.statusCode, json: () => ({}) };
    },
    expect: { anon: NO_CONTENT, owner: NO_CONTENT, other: NO_CONTENT, admin: NO_CONTENT, key: NO_CONTENT },
  },
  // The owner's Voice is asleep: refused before anything is charged.
  'POST /v1/chat/completions': keyOnly(
    json(
      'POST',
      () => '/v1/chat/completions',
      () => ({
        model: privateId,
        messages: [{ role: 'user', content: 'A note about the fair' }],
      }),
    ),
    { status: 400, code: 'VOICE_NOT_READY' },
  ),
};

/** Everything a refused call must leave alone (session last-use times move with any signed-in call). */
async function snapshot(): Promise<string> {
  const { db } = ctx.database;
  const rows = await Promise.all([
    db.select().from(users).orderBy(users.id),
    db.select().from(voices).orderBy(voices.id),
    db.select().from(usageTranches).orderBy(usageTranches.id),
    db.select().from(mfaBackupCodes).orderBy(mfaBackupCodes.id),
    db.select().from(ledgerEntries).orderBy(ledgerEntries.id),
    db.select().from(invitations).orderBy(invitations.id),
    // Reads and refusals log nothing either (sign-ins and sign-ups do, and are not refusals).
    db.select().from(activities).orderBy(activities.id),
    db
      .select({ id: sessions.id, userId: sessions.userId, tokenHash: sessions.tokenHash })
      .from(sessions)
      .orderBy(sessions.id),
  ]);
  return JSON.stringify(rows);
}

beforeAll(async () => {
  // Plans sold through the offline provider, so every billing route exists; accounts still start
  // with the configured allowance, so the Voice routes answer as they do without payments.
  ctx = await createTestContext({
    billing: { provider: 'offline', publicUrl: undefined, prioritySupportUrl: undefined },
  });
  anon = ctx.client();
  owner = ctx.client();
  other = ctx.client();
  adminNoMfa = ctx.client();
  ownerId = (await owner.register({ username: 'owner', email: 'owner@example.com', password: 'Passw0rdOk' })).res.json()
    .user.id;
  await other.register();
  const adminId: string = (await adminNoMfa.register()).res.json().user.id;
  await ctx.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, adminId));
  ownerKey = ctx.client();
  const made = await owner.createApiKey({
    name: 'Matrix',
    scopes: ['voices:read', 'convert', 'create', 'training'],
    rateLimitPerMinute: 600,
  });
  ownerKey.token = made.json().secret;
  // Past the Create Voice step, so Convert and Create answer by who owns the Voice, not by onboarding.
  await ctx.database.db.update(users).set({ onboardingStep: 'training_started' });
  privateId = newId();
  publicId = newId();
  await ctx.database.db.insert(voices).values([
    { id: privateId, userId: ownerId, name: 'Private', status: 'ready', progress: 100 },
    { id: publicId, userId: ownerId, name: 'Shared', status: 'ready', progress: 100, isPublic: true },
  ]);
});
afterAll(() => ctx.close());

describe('the authorization matrix', () => {
  it('has a row for every /api and /v1 route', () => {
    const routes = ctx.app.routeList
      .filter((r) => (r.url.startsWith('/api/') || r.url.startsWith('/v1/')) && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect([...routes].sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const [route, row] of Object.entries(MATRIX)) {
    for (const who of WHO) {
      const answer = row.expect[who];
      if (!answer) continue;
      it(`${route} as ${who}: ${answer.status}${answer.code ? ` ${answer.code}` : ''}`, async () => {
        const before = await snapshot();
        const res = await row.send(clientOf(who));
        expect(res.statusCode, JSON.stringify(res.json())).toBe(answer.status);
        // /v1 answers in OpenAI's shape, `{ error: { code } }`.
        const body = res.json() as { code?: string; error?: { code?: string } };
        if (answer.code) expect(body.code ?? body.error?.code).toBe(answer.code);
        // A refusal (and a read) changes nothing.
        expect(await snapshot()).toBe(before);
      });
    }
  }
});

describe('someone else’s public Voice', () => {
  const refusedToNonOwners: [string, (c: TestClient) => ReturnType<TestClient['request']>][] = [
    ['rename or publish', (c) => c.patch(`/api/loras/${publicId}`, { name: 'Hijacked', isPublic: false })],
    ['delete', (c) => c.delete(`/api/loras/${publicId}`)],
    ['wake', (c) => c.post(`/api/loras/${publicId}/activate`)],
    ['sleep', (c) => c.post(`/api/loras/${publicId}/deactivate`)],
    ['convert with', (c) => c.post(`/api/loras/${publicId}/convert-stream`, { text: 'Some text.' })],
  ];

  for (const who of ['other', 'admin'] as const) {
    it(`is visible to ${who}, who may not manage it (403) and changes nothing`, async () => {
      const client = clientOf(who);
      expect((await client.get(`/api/loras/${publicId}`)).statusCode).toBe(200);
      const listed = (await client.get('/api/loras/public')).json() as { _id: string }[];
      expect(listed.map((v) => v._id)).toContain(publicId);
      expect(listed.map((v) => v._id)).not.toContain(privateId);
      for (const [what, send] of refusedToNonOwners) {
        const before = await snapshot();
        const res = await send(client);
        expect(res.statusCode, what).toBe(403);
        expect(res.json().code, what).toBe('FORBIDDEN');
        expect(await snapshot(), what).toBe(before);
      }
    });
  }

  it('lists only the caller’s own Voices on the dashboard', async () => {
    expect(((await owner.get('/api/loras')).json() as { _id: string }[]).map((v) => v._id).sort()).toEqual(
      [privateId, publicId].sort(),
    );
    for (const who of ['other', 'admin'] as const) {
      expect((await clientOf(who).get('/api/loras')).json()).toEqual([]);
    }
  });
});
