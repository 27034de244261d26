// The account page's address, password and notice cards as the server renders them to HTML:
// the states each shows, and what assistive technology reads (names, descriptions, headings).
import { NOTICES } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { renderHtml, textOf } from '../../../lib/test-render';
import { testUser } from '../../../lib/test-user';
import { EmailCard } from './EmailCard';
import { NoticesCard } from './NoticesCard';
import { PasswordCard } from './PasswordCard';

/** Every attribute `name` in `html`, in order. */
const attributes = (html: string, name: string): string[] =>
  [...html.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((m) => m[1] ?? '');

describe('EmailCard', () => {
  it('says the address is not confirmed, where the link went, and offers another', () => {
    const user = testUser({ email: 'writer@example.com', emailVerified: false });
    const html = renderHtml(<EmailCard />, { user });
    const text = textOf(html);
    expect(html).toMatch(/<h2[^>]*>E-mail address<\/h2>/);
    expect(text).toContain('writer@example.com Not confirmed');
    expect(text).toContain('We sent a link to writer@example.com.');
    expect(text).toContain('Send the link again');
    expect(text).toContain('Change address');
    expect(text).not.toContain('Waiting for you');
  });

  it('shows a confirmed address and the new one waiting for its link', () => {
    const user = testUser({ email: 'writer@example.com', emailVerified: true, pendingEmail: 'new@example.com' });
    const text = textOf(renderHtml(<EmailCard />, { user }));
    expect(text).toContain('writer@example.com Confirmed');
    expect(text).toContain('Waiting for you to open the link sent to new@example.com.');
    expect(text).not.toContain('Send the link again');
  });
});

describe('PasswordCard', () => {
  it('is a card like the others, with a named button', () => {
    const html = renderHtml(<PasswordCard />, { user: testUser() });
    expect(html).toMatch(/<h2[^>]*>Password<\/h2>/);
    expect(textOf(html)).toContain('Change password');
    expect(textOf(html)).toContain('every other browser and device');
  });
});

describe('NoticesCard', () => {
  const html = renderHtml(<NoticesCard />, { user: testUser({ mutedNotices: ['payments'] }) });

  it('lists a switch for every notice, each named by its label and described by its description', () => {
    expect(html).toMatch(/<h2[^>]*>E-mail notices<\/h2>/);
    const switches = [...html.matchAll(/<input[^>]*role="switch"[^>]*>/g)].map((m) => m[0]);
    expect(switches).toHaveLength(NOTICES.length);
    for (const [index, input] of switches.entries()) {
      const notice = NOTICES[index];
      if (!notice) throw new Error('more switches than notices');
      const [labelledBy = ''] = attributes(input, 'aria-labelledby');
      const [describedBy = ''] = attributes(input, 'aria-describedby');
      const labelText = labelledBy
        .split(' ')
        .map((id) => textOf(new RegExp(`id="${id}"[^>]*>(.*?)</`).exec(html)?.[1] ?? ''))
        .join(' ');
      expect(labelText).toBe(notice.required ? `${notice.label} Always sent` : notice.label);
      expect(textOf(new RegExp(`id="${describedBy}"[^>]*>(.*?)</`).exec(html)?.[1] ?? '')).toBe(notice.description);
    }
  });

  it('shows a muted notice off, and the required ones on and not switchable', () => {
    const input = (key: string) => new RegExp(`<input[^>]*data-testid="notice-${key}"[^>]*>`).exec(html)?.[0] ?? '';
    expect(input('payments')).not.toMatch(/ checked=""/);
    expect(input('voice_results')).toMatch(/ checked=""/);
    expect(input('voice_results')).not.toMatch(/ disabled=""/);
    expect(input('security')).toMatch(/ checked=""/);
    expect(input('security')).toMatch(/ disabled=""/);
  });

  it('keeps a live region for saving and saved', () => {
    expect(html).toMatch(/role="status"[^>]*data-testid="notices-status"[^>]*data-state="idle"/);
  });
});
