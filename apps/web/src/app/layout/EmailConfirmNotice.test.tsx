// The layout's notice of an unconfirmed address as the server renders it to HTML.
import { describe, expect, it } from 'vitest';
import { PATHS } from '../../lib/paths';
import { renderHtml, textOf } from '../../lib/test-render';
import { testUser } from '../../lib/test-user';
import { EmailConfirmNotice } from './EmailConfirmNotice';

const unconfirmed = testUser({ email: 'writer@example.com', emailVerified: false });

describe('EmailConfirmNotice', () => {
  it('says where the link went, with Send again and a named close button', () => {
    const html = renderHtml(<EmailConfirmNotice />, { user: unconfirmed, path: PATHS.dashboard });
    expect(html).toMatch(/<aside[^>]*aria-label="Address not confirmed"/);
    expect(textOf(html)).toContain('Confirm your address: we sent a link to writer@example.com.');
    expect(textOf(html)).toContain('Send again');
    expect(html).toMatch(/aria-label="Hide this notice for now"/);
  });

  it('is not there for a confirmed address, signed out, or on the account page', () => {
    expect(textOf(renderHtml(<EmailConfirmNotice />, { user: testUser(), path: PATHS.dashboard }))).toBe('');
    expect(textOf(renderHtml(<EmailConfirmNotice />, { user: null, path: PATHS.dashboard }))).toBe('');
    expect(textOf(renderHtml(<EmailConfirmNotice />, { user: unconfirmed, path: PATHS.account }))).toBe('');
  });
});
