import { ALLOWED_LINK_SCHEMES } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { isAllowedLinkUri, linkScheme } from './link-schemes';

describe('isAllowedLinkUri', () => {
  it('accepts every allowed scheme, in any case', () => {
    for (const scheme of ALLOWED_LINK_SCHEMES) {
      expect(isAllowedLinkUri(`${scheme}:something`)).toBe(true);
      expect(isAllowedLinkUri(`${scheme.toUpperCase()}:something`)).toBe(true);
    }
    expect(isAllowedLinkUri('https://example.com/a?b=c')).toBe(true);
    expect(isAllowedLinkUri('mailto:someone@example.com')).toBe(true);
    expect(isAllowedLinkUri('tel:+15551234')).toBe(true);
  });

  it('refuses other schemes', () => {
    for (const uri of ['javascript:alert(1)', 'data:text/html,hi', 'vbscript:x', 'file:///etc/passwd', 'httpx://a']) {
      expect(isAllowedLinkUri(uri)).toBe(false);
    }
  });

  it('sees through whitespace and control characters hiding a scheme', () => {
    expect(isAllowedLinkUri('java\tscript:alert(1)')).toBe(false);
    expect(isAllowedLinkUri(' \njavascript:alert(1)')).toBe(false);
    expect(isAllowedLinkUri('jav\u0000ascript:alert(1)')).toBe(false);
    expect(isAllowedLinkUri('java\u200bscript:alert(1)')).toBe(false);
    expect(linkScheme('  HTTPS://example.com')).toBe('https');
  });

  it('refuses links without a scheme and empty values', () => {
    for (const uri of ['/dashboard', '#top', 'example.com', '//evil.example', '', null, undefined]) {
      expect(isAllowedLinkUri(uri)).toBe(false);
    }
  });
});
