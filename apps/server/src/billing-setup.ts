// `npm run billing:setup`: creates, in the Stripe account of STRIPE_SECRET_KEY, the products and
// prices OwnVoice sells (payments/stripe-prices.ts), which the server finds by lookup key. Safe to
// run again: it looks each one up first and creates only what is missing. A price whose amount
// changed in the catalog gets a new price that takes over the lookup key; subscribers stay on the
// price they signed up at. Prices include tax: one whose tax behavior was never set is set to
// inclusive, which Stripe allows once.
import { pathToFileURL } from 'node:url';
import { formatUsd } from '@ownvoice/shared';
import Stripe from 'stripe';
import {
  findPricesByLookupKey,
  PRICE_CURRENCY,
  PRICE_SELLS_KEY,
  PRICE_SPECS,
  PRICE_TAX_BEHAVIOR,
  type PriceSpec,
  priceMismatch,
} from './payments/stripe-prices.js';
import { createStripeClient } from './payments/stripe-provider.js';

const USAGE = `Usage: STRIPE_SECRET_KEY=sk_... npm run billing:setup

  Creates the products and prices OwnVoice sells in the Stripe account of STRIPE_SECRET_KEY,
  finding what already exists first, so running it again creates nothing new. Run it once per
  Stripe account (test mode and live mode are separate), and again after prices change.`;

export interface SetupReport {
  products: { id: string; action: 'kept' | 'created' }[];
  prices: { lookupKey: string; priceId: string; action: 'kept' | 'updated' | 'created' | 'replaced' }[];
}

export class SetupError extends Error {}

/** Makes the Stripe account sell exactly the catalog; `log` gets one line per thing done. */
export async function setUpStripeCatalog(stripe: Stripe, log: (line: string) => void = () => {}): Promise<SetupReport> {
  const report: SetupReport = { products: [], prices: [] };
  const products = new Map(PRICE_SPECS.map((spec) => [spec.productId, spec.productName]));
  for (const [id, name] of products) {
    const existing = await findProduct(stripe, id);
    if (existing && !existing.active) {
      throw new SetupError(`Product ${id} is archived in Stripe: unarchive it in the dashboard, then run this again.`);
    }
    if (!existing) {
      await stripe.products.create({ id, name });
      log(`created  product ${id} (${name})`);
    }
    report.products.push({ id, action: existing ? 'kept' : 'created' });
  }

  const found = await findPricesByLookupKey(
    stripe,
    PRICE_SPECS.map((spec) => spec.lookupKey),
  );
  for (const spec of PRICE_SPECS) {
    const existing = found.get(spec.lookupKey);
    const mismatch = existing && priceMismatch(spec, existing);
    if (existing && !mismatch) {
      // "Once specified as either inclusive or exclusive, it cannot be changed" (SDK:
      // Price.tax_behavior): one left unspecified is set now.
      const unspecified = existing.tax_behavior !== PRICE_TAX_BEHAVIOR;
      if (unspecified) await stripe.prices.update(existing.id, { tax_behavior: PRICE_TAX_BEHAVIOR });
      log(`${unspecified ? 'updated ' : 'kept    '} ${spec.lookupKey}: ${describe(spec)} (${existing.id})`);
      report.prices.push({ lookupKey: spec.lookupKey, priceId: existing.id, action: unspecified ? 'updated' : 'kept' });
      continue;
    }
    const price = await stripe.prices.create({
      product: spec.productId,
      currency: PRICE_CURRENCY,
      unit_amount: spec.unitAmountCents,
      ...(spec.interval && { recurring: { interval: spec.interval, interval_count: 1 } }),
      lookup_key: spec.lookupKey,
      metadata: { [PRICE_SELLS_KEY]: spec.lookupKey },
      tax_behavior: PRICE_TAX_BEHAVIOR,
      // Moves the key from the old price, which stays for the subscriptions already on it.
      ...(existing && { transfer_lookup_key: true }),
      nickname: spec.nickname,
    });
    log(
      existing
        ? `replaced ${spec.lookupKey}: ${describe(spec)} (${price.id}; ${existing.id} was not usable: ${mismatch})`
        : `created  ${spec.lookupKey}: ${describe(spec)} (${price.id})`,
    );
    report.prices.push({ lookupKey: spec.lookupKey, priceId: price.id, action: existing ? 'replaced' : 'created' });
  }
  return report;
}

async function findProduct(stripe: Stripe, id: string): Promise<Stripe.Product | null> {
  try {
    return await stripe.products.retrieve(id);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
    throw error;
  }
}

const describe = (spec: PriceSpec) =>
  `${formatUsd(spec.unitAmountCents)} ${spec.interval ? `a ${spec.interval}` : 'once'}`;

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (argv.length > 0) {
    console.error(`Unknown argument: ${argv.join(' ')}\n\n${USAGE}`);
    return 2;
  }
  const secretKey = process.env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) {
    console.error(`STRIPE_SECRET_KEY is not set.\n\n${USAGE}`);
    return 2;
  }
  const mode = /^(sk|rk)_live_/.test(secretKey) ? 'LIVE mode: real cards will pay these prices' : 'test mode';
  console.log(`Setting up OwnVoice's products and prices in the Stripe account of STRIPE_SECRET_KEY (${mode}).`);
  try {
    const report = await setUpStripeCatalog(createStripeClient(secretKey), (line) => console.log(line));
    const created = [...report.products, ...report.prices].filter((each) => each.action !== 'kept').length;
    console.log(created === 0 ? 'Everything was already set up.' : `Done: ${created} created, replaced or updated.`);
    return 0;
  } catch (error) {
    if (error instanceof SetupError) {
      console.error(error.message);
      return 1;
    }
    if (error instanceof Stripe.errors.StripeAuthenticationError) {
      console.error('Stripe refused STRIPE_SECRET_KEY: copy the secret key again from the Stripe dashboard.');
      return 1;
    }
    if (error instanceof Stripe.errors.StripeConnectionError) {
      console.error(`Could not reach Stripe (${error.message}): check the network and run this again.`);
      return 1;
    }
    if (error instanceof Stripe.errors.StripeError) {
      console.error(`Stripe refused: ${error.message}\nNothing after that step was done; run this again once fixed.`);
      return 1;
    }
    throw error;
  }
}

// Runs only as the entry point, so the tests can import setUpStripeCatalog.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`Billing setup failed: ${(error as Error)?.stack ?? String(error)}`);
      process.exit(1);
    },
  );
}
