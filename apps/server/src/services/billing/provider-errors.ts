// The payment provider's refusals as the person should read them: the bank's reason on a declined
// card, what to do when the bank asks to confirm, a subscription that has ended, a provider that
// is busy or away (503), or the operator's setup (503, logged at error level). One mapping for
// every billing call, so each refusal reads the same wherever it happens.
import { errors } from '../../errors.js';
import { PaymentProviderError } from '../../payments/provider.js';

export interface ProviderErrorLog {
  warn(msg: string): void;
  error(obj: unknown, msg?: string): void;
}

/** The AppError a provider failure becomes; anything else is passed on unchanged. */
export function providerFailure(error: unknown, log: ProviderErrorLog): unknown {
  if (!(error instanceof PaymentProviderError)) return error;
  switch (error.code) {
    case 'ended':
      return errors.noSubscription('Your subscription has already ended. Choose a plan to subscribe again.');
    case 'card_declined':
      return errors.paymentDeclined(error.message);
    case 'requires_action':
      return errors.paymentRequiresAction(error.message);
    case 'unavailable':
      log.warn(`payment provider: ${error.message}`);
      return errors.paymentProvider(error.message, 503);
    case 'misconfigured':
      log.error(error, 'payment provider: the billing setup is wrong');
      return errors.paymentProvider('Payments are not set up right on this server. Please tell its operator.', 503);
    default:
      log.warn(`payment provider: ${error.message}`);
      // A refusal that says why (the provider's 4xx) is the person's to read as it is.
      return error.status !== undefined && error.status < 500
        ? errors.paymentProvider(error.message, 409)
        : errors.paymentProvider(`The payment provider did not answer as expected: ${error.message} Please try again.`);
  }
}

/** The bank's words as a sentence of their own: ended with one full stop, never two. */
export const sentence = (reason: string): string =>
  /[.!?]$/.test(reason.trim()) ? reason.trim() : `${reason.trim()}.`;
