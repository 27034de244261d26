// Test cards for the offline provider (payments/test-cards.ts): a fresh working card per buyer,
// and Stripe's numbers for a card declined when charged later and one whose bank asks to confirm.
import { withCheckDigit } from '../payments/test-cards.js';

let cardSerial = 0;

/**
 * A card number nobody used before in this process (a valid check digit, so the offline
 * checkout takes it as a working card): each buyer's card has its own fingerprint, as people's do.
 */
export function freshCard(): string {
  return withCheckDigit(`4${String(Date.now() % 1e9).padStart(9, '0')}${String(++cardSerial).padStart(5, '0')}`);
}

/** Saved, then declined whenever it is charged. */
export const CARD_DECLINED_LATER = '4000000000000341';
/** The bank asks the cardholder to confirm (3-D Secure). */
export const CARD_NEEDS_CONFIRMING = '4000002760003184';
/** Declined at once, on the checkout page. */
export const CARD_DECLINED = '4000000000000002';
/** Declined for insufficient funds. */
export const CARD_INSUFFICIENT_FUNDS = '4000000000009995';
