// The offline provider's pages: the test checkout (what is being bought, for how much, a test
// card, Pay or Cancel) and the hosted invoice page (an unpaid invoice: why it failed, a test card,
// Pay). They say plainly that they are tests and that no card is charged. Plain HTML without
// scripts, every value escaped.
import { formatUsd, PACKS, PLANS, packsOf, resourceAmount, TRIAL_START_STATEMENT } from '@ownvoice/shared';
import type { OfflineCheckoutView, OfflineInvoiceView } from '../../payments/offline-provider.js';
import { DEFAULT_TEST_CARD, TEST_CARD_NUMBERS, testCardLabel } from '../../payments/test-cards.js';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What the checkout buys, in words. */
export function checkoutItem(session: OfflineCheckoutView): { title: string; detail: string } {
  if (session.kind === 'trial') {
    return {
      title: 'Pay later: start your trial',
      detail: `Save a card now. ${TRIAL_START_STATEMENT}`,
    };
  }
  const packs = session.kind === 'pack' ? packsOf(session.pack) : [];
  if (packs.length > 0) {
    const items = packs.map((id) => `+${resourceAmount(PACKS[id].resource, PACKS[id].amount)}`);
    return {
      title: `Top-up: ${items.join(' and ')}`,
      detail: packs.length > 1 ? 'One-time purchases, paid together.' : 'A one-time purchase.',
    };
  }
  const plan = session.plan ?? 'minimum';
  const cycle = session.billingCycle ?? 'monthly';
  return {
    title: `${capitalise(plan)} plan, billed ${cycle === 'annual' ? 'annually' : 'monthly'}`,
    detail: `Renews every ${cycle === 'annual' ? 'year' : 'month'} until cancelled${
      session.payNow ? ', 15% off for life' : ''
    }. Tier ${PLANS[plan].tier} of 3.`,
  };
}

export function checkoutPage(session: OfflineCheckoutView, actionBase: string, error: string | null = null): string {
  const item = checkoutItem(session);
  const amount = session.kind === 'trial' ? 'Nothing today' : formatUsd(session.amountCents);
  const closed =
    session.status === 'complete'
      ? { text: 'This checkout is already paid.', href: session.successUrl }
      : { text: 'This checkout has closed: start again from the plans page.', href: session.cancelUrl };
  return page(
    'Test checkout',
    `<h1>${escapeHtml(item.title)}</h1>
  <p class="detail">${escapeHtml(item.detail)}</p>
  <p class="amount" data-testid="offline-checkout-amount">${escapeHtml(amount)}</p>
  ${error ? errorBlock(error) : ''}
  ${
    session.status === 'open'
      ? `<form method="post" action="${escapeHtml(actionBase)}/pay">${cardChoice()}
    <div class="actions"><button class="pay" type="submit">${session.kind === 'trial' ? 'Start trial' : 'Pay'}</button>
    <button type="submit" formaction="${escapeHtml(actionBase)}/cancel">Cancel</button></div></form>`
      : `<p class="closed">${escapeHtml(closed.text)} <a href="${escapeHtml(closed.href)}">Continue</a></p>`
  }`,
  );
}

/** The provider's page for an unpaid invoice: a declined renewal, or a first payment the bank asks to confirm. */
export function invoicePage(
  invoice: OfflineInvoiceView,
  actionBase: string,
  backUrl: string,
  error: string | null = null,
): string {
  const body =
    invoice.status === 'open'
      ? `<p class="detail">${escapeHtml(
          invoice.requiresAction
            ? 'Your bank asks you to confirm this payment. Choose the card and confirm it here.'
            : `The last attempt did not go through: ${invoice.failure ?? 'the card was declined'} Pay with another card.`,
        )}</p>
  ${error ? errorBlock(error) : ''}
  <form method="post" action="${escapeHtml(actionBase)}/pay">${cardChoice()}
    <div class="actions"><button class="pay" type="submit">Pay ${escapeHtml(formatUsd(invoice.totalCents))}</button></div></form>`
      : `<p class="closed">${invoice.status === 'paid' ? 'This invoice is paid.' : 'This invoice was cancelled and is no longer due.'} <a href="${escapeHtml(backUrl)}">Back to OwnVoice</a></p>`;
  return page(
    'Invoice',
    `<h1>Invoice</h1>
  <p class="amount" data-testid="offline-invoice-amount">${escapeHtml(formatUsd(invoice.totalCents))}</p>
  ${body}`,
  );
}

function cardChoice(): string {
  const options = TEST_CARD_NUMBERS.map(
    (number) =>
      `<label><input type="radio" name="card" value="${number}"${number === DEFAULT_TEST_CARD ? ' checked' : ''}> ${escapeHtml(testCardLabel(number))}</label>`,
  ).join('\n      ');
  return `<fieldset><legend>Test card</legend>
      ${options}
      <label for="card-number">Or another card number (any well-formed number pays; only its fingerprint is kept)</label>
      <input id="card-number" name="card_number" inputmode="numeric" autocomplete="off" placeholder="4242 4242 4242 4242">
    </fieldset>`;
}

const errorBlock = (error: string) => `<p class="error" role="alert">${escapeHtml(error)}</p>`;

function page(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · OwnVoice</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f5f7; margin: 0; color: #1f2933; }
  main { max-width: 440px; margin: 48px auto; background: #fff; border-radius: 12px; padding: 28px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  .banner { background: #fff4e5; border: 1px solid #f0b429; color: #7c5e10; border-radius: 8px; padding: 12px 14px; font-size: 14px; margin-bottom: 20px; }
  h1 { font-size: 20px; margin: 0 0 4px; }
  .detail { color: #52606d; font-size: 14px; margin: 0 0 20px; }
  .amount { font-size: 28px; font-weight: 700; margin: 0 0 24px; }
  fieldset { border: 1px solid #cbd2d9; border-radius: 8px; margin: 0 0 20px; padding: 10px 14px; }
  label { display: block; padding: 4px 0; font-size: 14px; }
  input#card-number { width: 100%; box-sizing: border-box; font-size: 15px; padding: 8px; border: 1px solid #9aa5b1; border-radius: 6px; }
  .actions { display: flex; gap: 12px; }
  button { font-size: 16px; border-radius: 8px; padding: 10px 18px; cursor: pointer; border: 1px solid #cbd2d9; background: #fff; }
  button.pay { background: #0f766e; color: #fff; border-color: #0f766e; flex: 1; }
  .error { background: #fde8e8; border: 1px solid #e12d39; color: #8a041a; border-radius: 8px; padding: 10px 14px; }
  .closed { color: #52606d; }
</style>
</head>
<body>
<main data-testid="offline-checkout">
  <p class="banner"><strong>${title === 'Invoice' ? 'Test payment page.' : 'Test checkout.'}</strong> This server takes no real payments: the cards below are test cards and nothing is charged. The button below completes it as a real checkout would.</p>
  ${main}
</main>
</body>
</html>`;
}
