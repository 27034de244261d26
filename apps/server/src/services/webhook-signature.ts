// A delivery's signature, in Stripe's scheme so that the receivers people already wrote for
// Stripe's webhooks work: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`.
// The receiver recomputes it over the raw body and refuses an old `t` (replays).
import { createHmac } from 'node:crypto';

export function webhookSignature(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
