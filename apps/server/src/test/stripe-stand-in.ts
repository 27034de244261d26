// The local Stripe stand-in the tests reach through the real SDK; it lives in stripe-stand-in/.
export { parseForm } from './stripe-stand-in/form.js';
export { RETRY_DAYS } from './stripe-stand-in/invoices.js';
export { TEST_CARDS, type TestCard } from './stripe-stand-in/payments.js';
export { type RecordedRequest, StripeStandIn } from './stripe-stand-in/stand-in.js';
