// The offline provider's test cards. Stripe's documented test numbers behave as Stripe says
// (docs.stripe.com/testing): 4242… pays, 0002 and 9995 are declined, 0341 is saved but declined
// when charged later, and 3184's bank asks the cardholder to confirm every payment (3-D Secure),
// which an off-session charge (a renewal, an upgrade, the trial's end) cannot do. Any other well-formed number (a valid Luhn check digit)
// pays, so tests can use many distinct cards. A card's fingerprint is the same for the same
// number, as Stripe's is for the same card; the number itself is never kept.
import { createHash } from 'node:crypto';
import type { OfflineCardBehaviour } from '../db/schema.js';

export interface TestCard {
  label: string;
  behaviour: OfflineCardBehaviour;
  /** What the bank says when it declines. */
  declineMessage: string | null;
  /** Declined already when entered on a page (not only when charged later). */
  declinedOnPage: boolean;
  fingerprint: string;
}

const SPECIAL: Record<string, Omit<TestCard, 'fingerprint'>> = {
  '4242424242424242': { label: 'Visa 4242 · pays', behaviour: 'works', declineMessage: null, declinedOnPage: false },
  '4000000000000002': {
    label: 'Visa 0002 · declined',
    behaviour: 'declines',
    declineMessage: 'Your card was declined.',
    declinedOnPage: true,
  },
  '4000000000009995': {
    label: 'Visa 9995 · insufficient funds',
    behaviour: 'declines',
    declineMessage: 'Your card has insufficient funds.',
    declinedOnPage: true,
  },
  '4000000000000341': {
    label: 'Visa 0341 · saved, then declined when charged',
    behaviour: 'declines',
    declineMessage: 'Your card was declined.',
    declinedOnPage: false,
  },
  '4000002760003184': {
    label: 'Visa 3184 · bank asks to confirm each payment',
    behaviour: 'requires_action',
    declineMessage: null,
    declinedOnPage: false,
  },
};

/** The numbers the pages offer, in order. */
export const TEST_CARD_NUMBERS = Object.keys(SPECIAL);
export const DEFAULT_TEST_CARD = '4242424242424242';

export const testCardLabel = (number: string): string => SPECIAL[number]?.label ?? number;

/** The card a number stands for, or undefined when it is not a well-formed card number. */
export function testCard(number: string | undefined): TestCard | undefined {
  const digits = (number ?? DEFAULT_TEST_CARD).replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) return undefined;
  const fingerprint = createHash('sha256').update(`offline-card:${digits}`).digest('hex').slice(0, 16);
  const known = SPECIAL[digits] ?? {
    label: `Card ending ${digits.slice(-4)}`,
    behaviour: 'works',
    declineMessage: null,
    declinedOnPage: false,
  };
  return { ...known, fingerprint };
}

/** The check digit card numbers carry (ISO/IEC 7812). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let at = 0; at < digits.length; at++) {
    let digit = Number(digits[digits.length - 1 - at]);
    if (at % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** `body` with the check digit that makes it a well-formed card number. */
export function withCheckDigit(body: string): string {
  for (let check = 0; check <= 9; check++) if (luhnValid(`${body}${check}`)) return `${body}${check}`;
  throw new Error(`No check digit for ${body}.`);
}
