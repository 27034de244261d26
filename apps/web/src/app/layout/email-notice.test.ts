import { describe, expect, it } from 'vitest';
import { memorySessionStore } from '../../lib/billing/session-store';
import { invitationPath, PATHS } from '../../lib/paths';
import { closeEmailNotice, emailNoticeKey, isEmailNoticeClosed, showsEmailNotice } from './email-notice';

const unconfirmed = { emailVerified: false };

describe('showsEmailNotice', () => {
  it('shows for a signed-in, unconfirmed address on the pages that do not say it themselves', () => {
    expect(showsEmailNotice(unconfirmed, PATHS.dashboard, false)).toBe(true);
    expect(showsEmailNotice(unconfirmed, PATHS.convert, false)).toBe(true);
    expect(showsEmailNotice(unconfirmed, PATHS.home, false)).toBe(true);
  });

  it('stays away when confirmed, signed out or closed', () => {
    expect(showsEmailNotice({ emailVerified: true }, PATHS.dashboard, false)).toBe(false);
    expect(showsEmailNotice(null, PATHS.dashboard, false)).toBe(false);
    expect(showsEmailNotice(unconfirmed, PATHS.dashboard, true)).toBe(false);
  });

  it('leaves it to the pages that say it themselves', () => {
    expect(showsEmailNotice(unconfirmed, PATHS.account, false)).toBe(false);
    expect(showsEmailNotice(unconfirmed, `${PATHS.account}/`, false)).toBe(false);
    expect(showsEmailNotice(unconfirmed, PATHS.verifyEmail, false)).toBe(false);
    expect(showsEmailNotice(unconfirmed, PATHS.onboardingPayLater, false)).toBe(false);
    expect(showsEmailNotice(unconfirmed, invitationPath('abc'), false)).toBe(false);
  });
});

describe('closing the notice', () => {
  it('is remembered per user for the browser session', () => {
    const store = memorySessionStore();
    expect(isEmailNoticeClosed(store, 'u1')).toBe(false);
    closeEmailNotice(store, 'u1');
    expect(isEmailNoticeClosed(store, 'u1')).toBe(true);
    expect(isEmailNoticeClosed(store, 'u2')).toBe(false);
    expect(store.items.get(emailNoticeKey('u1'))).toBe('closed');
  });

  it('still works without storage', () => {
    expect(isEmailNoticeClosed(null, 'u1')).toBe(false);
    expect(() => closeEmailNotice(null, 'u1')).not.toThrow();
  });
});
