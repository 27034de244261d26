// What the purchase modal says for each way a resource can run out.
import { RESOURCE_UNITS } from '@ownvoice/shared';
import type { InsufficientLimit } from '../../lib/insufficient-limit';

export interface PurchaseCopy {
  title: string;
  body: string;
}

/** A label inside a sentence: "Proofreads" becomes "proofreads"; the product name Voice stays. */

export function purchaseCopy(limit: InsufficientLimit): PurchaseCopy {
  if (limit.kind === 'credits') {
    return {
      title: 'Not enough credits',
      body:
        limit.required === null
          ? 'You do not have enough credits for this. Top up or upgrade your plan to carry on.'
          : `This needs ${limit.required.toLocaleString('en-US')} credits. Top up or upgrade your plan to carry on.`,
    };
  }
  if (limit.resource === null) {
    return {
      title: 'You have reached a usage limit',
      body: 'Your plan has no more of what this needs. Upgrade your plan or buy a top-up pack to carry on.',
    };
  }
  if (limit.also && limit.also.length > 0) {
    const labels = [limit.resource, ...limit.also].map((key) => RESOURCE_UNITS[key][1]);
    const named = `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
    return {
      title: `This needs ${named}`,
      body: `You have none left of ${labels.length === 2 ? 'either' : 'these'}: ${named}. One checkout below buys everything it needs, or upgrade your plan.`,
    };
  }
  const label = RESOURCE_UNITS[limit.resource][1];
  return {
    title: `No ${label} left`,
    body: `You have used all your ${label} for now. Upgrade your plan or buy a top-up pack to get more.`,
  };
}
