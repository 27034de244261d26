// The offline provider's checkout page: what is being bought, for how much, and Pay or Cancel.
// It says plainly that it is a test checkout and that no card is charged. Plain HTML without
// scripts, every value escaped.
import { formatUsd, PACKS, PLANS, RESOURCE_LABELS } from '@ownvoice/shared';
import type { OfflineCheckoutRow } from '../../db/schema.js';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What the checkout buys, in words. */
export function checkoutItem(session: OfflineCheckoutRow): { title: string; detail: string } {
  if (session.kind === 'trial') {
    return {
      title: 'Pay later: start your trial',
      detail: 'Save a card now; nothing is charged today. Your first charge comes when the Minimum plan starts.',
    };
  }
  if (session.kind === 'pack' && session.pack && session.pack in PACKS) {
    const pack = PACKS[session.pack as keyof typeof PACKS];
    return { title: `Top-up: +${pack.amount} ${RESOURCE_LABELS[pack.resource]}`, detail: 'A one-time purchase.' };
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

export function checkoutPage(session: OfflineCheckoutRow, actionBase: string): string {
  const item = checkoutItem(session);
  const open = session.status === 'open';
  const amount = session.kind === 'trial' ? 'Nothing today' : formatUsd(session.amountCents);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test checkout · OwnVoice</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f5f7; margin: 0; color: #1f2933; }
  main { max-width: 440px; margin: 48px auto; background: #fff; border-radius: 12px; padding: 28px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  .banner { background: #fff4e5; border: 1px solid #f0b429; color: #7c5e10; border-radius: 8px; padding: 12px 14px; font-size: 14px; margin-bottom: 20px; }
  h1 { font-size: 20px; margin: 0 0 4px; }
  .detail { color: #52606d; font-size: 14px; margin: 0 0 20px; }
  .amount { font-size: 28px; font-weight: 700; margin: 0 0 24px; }
  .actions { display: flex; gap: 12px; }
  button { font-size: 16px; border-radius: 8px; padding: 10px 18px; cursor: pointer; border: 1px solid #cbd2d9; background: #fff; }
  button.pay { background: #0f766e; color: #fff; border-color: #0f766e; flex: 1; }
  .closed { color: #52606d; }
</style>
</head>
<body>
<main data-testid="offline-checkout">
  <p class="banner"><strong>Test checkout.</strong> This server takes no real payments: no card is asked for and nothing is charged. Pressing Pay completes the purchase as a real payment would.</p>
  <h1>${escapeHtml(item.title)}</h1>
  <p class="detail">${escapeHtml(item.detail)}</p>
  <p class="amount" data-testid="offline-checkout-amount">${escapeHtml(amount)}</p>
  ${
    open
      ? `<div class="actions">
    <form method="post" action="${escapeHtml(actionBase)}/pay"><button class="pay" type="submit">Pay</button></form>
    <form method="post" action="${escapeHtml(actionBase)}/cancel"><button type="submit">Cancel</button></form>
  </div>`
      : `<p class="closed">This checkout is ${session.status === 'complete' ? 'already paid' : 'cancelled'}. <a href="${escapeHtml(
          session.status === 'complete' ? session.successUrl : session.cancelUrl,
        )}">Continue</a></p>`
  }
</main>
</body>
</html>`;
}
