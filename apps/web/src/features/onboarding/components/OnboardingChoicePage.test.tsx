// The onboarding choice as the server renders it to HTML: where plans are sold, the two ways to pay
// with the trial's first charge; on a server without payments, no price at all and the way on to a
// first Voice.
import { MantineProvider } from '@mantine/core';
import type { BillingInfo } from '@ownvoice/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { billingKeys } from '../../../lib/billing/billing-queries';
import { type Session, SessionContext } from '../../../lib/session/session-context';
import { testUser } from '../../../lib/test-user';
import { OnboardingChoicePage } from './OnboardingChoicePage';

function pageText(billing: BillingInfo): string {
  const client = new QueryClient();
  client.setQueryData(billingKeys.info, billing);
  const session = { status: 'authenticated', user: testUser() } as Session;
  const html = renderToStaticMarkup(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <SessionContext.Provider value={session}>
          <MemoryRouter>
            <OnboardingChoicePage />
          </MemoryRouter>
        </SessionContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('OnboardingChoicePage', () => {
  it('offers paying later, with the first charge, and paying now where plans are sold', () => {
    const text = pageText({ provider: 'offline', testMode: true });
    expect(text).toContain('Try first, pay later');
    expect(text).toMatch(/your first charge is \$[\d.]+ after 24 hours/);
    expect(text).toContain('Pay now, save for life');
  });

  it('names no charge on a server without payments and leads to a first Voice', () => {
    const text = pageText({ provider: 'none', testMode: false });
    expect(text).not.toContain('first charge');
    expect(text).not.toContain('Pay now');
    expect(text).toContain('No plans to buy on this server');
    expect(text).toContain('Create your first Voice');
  });
});
