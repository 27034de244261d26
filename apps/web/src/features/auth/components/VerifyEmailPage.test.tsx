// The confirmation link's page as the server renders it to HTML, before its one request runs.
import { describe, expect, it } from 'vitest';
import { PATHS } from '../../../lib/paths';
import { renderHtml, textOf } from '../../../lib/test-render';
import { testUser } from '../../../lib/test-user';
import { VERIFY_MESSAGES } from '../verify-email';
import { VerifyEmailPage } from './VerifyEmailPage';

describe('VerifyEmailPage', () => {
  it('says it is confirming the address while the link is checked', () => {
    const html = renderHtml(<VerifyEmailPage />, { path: `${PATHS.verifyEmail}?token=${'a'.repeat(43)}` });
    expect(html).toMatch(/<h1[^>]*>Confirming your address<\/h1>/);
    expect(html).toMatch(/role="status"/);
    expect(textOf(html)).toContain(VERIFY_MESSAGES.checking);
  });

  it('says a page opened without the link needs it, and leads to the account page', () => {
    const html = renderHtml(<VerifyEmailPage />, { path: PATHS.verifyEmail, user: testUser() });
    expect(textOf(html)).toContain(VERIFY_MESSAGES.noToken);
    expect(html).toMatch(new RegExp(`href="${PATHS.account}"[^>]*>.*Go to your account page`));
  });
});
