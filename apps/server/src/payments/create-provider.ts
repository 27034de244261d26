// Picks the payment provider from the configuration (OWNVOICE_BILLING).
import type { Clock } from '../clock.js';
import type { BillingConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { OfflineBillingRepository } from '../repositories/offline-billing.repository.js';
import { OfflineProvider, offlineWebhookSecret } from './offline-provider.js';
import type { PaymentProvider } from './provider.js';
import { StripeProvider } from './stripe-provider.js';

/** Where the offline provider serves its checkout page. */
export const OFFLINE_CHECKOUT_PATH = '/api/offline-checkout';

export function createPaymentProvider(
  config: BillingConfig,
  deps: { db: Database; clock: Clock; secretKey: Buffer },
): PaymentProvider | null {
  switch (config.provider) {
    case 'none':
      return null;
    case 'offline':
      return new OfflineProvider(
        new OfflineBillingRepository(deps.db),
        deps.clock,
        offlineWebhookSecret(deps.secretKey),
        OFFLINE_CHECKOUT_PATH,
      );
    case 'stripe':
      return new StripeProvider({
        secretKey: config.secretKey,
        webhookSecret: config.webhookSecret,
        ...(config.apiBase ? { apiBase: config.apiBase } : {}),
        automaticTax: config.automaticTax ?? false,
      });
  }
}
