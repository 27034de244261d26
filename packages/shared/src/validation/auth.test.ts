import { describe, expect, it } from 'vitest';
import {
  emailSchema,
  filterLoginCodeInput,
  loginCodeSchema,
  MESSAGES,
  mixesScripts,
  normalizeLoginCode,
  usernameSchema,
} from './auth.js';

describe('sign-in codes', () => {
  it('takes a backup code as issued, in any case, and the filter of the code box agrees', () => {
    for (const typed of ['abcd-efgh', 'ABCD-EFGH', ' abcd efgh ', 'AbCdEfGh']) {
      expect(normalizeLoginCode(typed)).toBe('abcdefgh');
      expect(filterLoginCodeInput(typed)).toBe('abcdefgh');
      expect(loginCodeSchema.parse(typed)).toBe('abcdefgh');
    }
    expect(loginCodeSchema.parse(' 123 456 ')).toBe('123456');
    expect(loginCodeSchema.safeParse('12-45').success).toBe(false);
    expect(loginCodeSchema.safeParse('abcd!efg').success).toBe(false);
  });
});

describe('e-mail and username rules', () => {
  it('stops at the length before any pattern runs over a huge input', () => {
    const started = Date.now();
    const result = emailSchema.safeParse(`a@${'.'.repeat(200_000)}@`);
    expect(Date.now() - started).toBeLessThan(500);
    expect(result.error?.issues.map((i) => i.message)).toEqual([MESSAGES.emailLength]);
  });

  it('tells look-alike scripts from scripts written together', () => {
    expect(mixesScripts('v\u0456ctim')).toBe(true);
    expect(mixesScripts('paypa\u04cf')).toBe(true);
    expect(mixesScripts('m\u00fcller')).toBe(false);
    expect(mixesScripts('\u0438\u0432\u0430\u043d')).toBe(false);
    expect(mixesScripts('\u305f\u306a\u304b\u592a\u90ce')).toBe(false);
    expect(mixesScripts('user42_x')).toBe(false);
  });

  it('folds fullwidth forms and refuses invisible characters', () => {
    expect(emailSchema.parse('\uff56ictim@EX.com ')).toBe('victim@ex.com');
    expect(emailSchema.safeParse('victim\u200d@ex.com').error?.issues[0]?.message).toBe(MESSAGES.emailLookAlike);
    expect(usernameSchema.parse('\uff56ictim')).toBe('victim');
    expect(usernameSchema.safeParse('vic\u200btim').error?.issues[0]?.message).toBe(MESSAGES.usernameChars);
  });
});

describe('what an e-mail address may be', () => {
  it('takes a dot-atom before the @ and a host name after it', () => {
    for (const address of [
      'first.last@example.com',
      'first.last+tag@mail.example.co.uk',
      "o'brien@example.ie",
      'a_b-c=d@ex-ample.org',
      'm\u00fcller@b\u00fccher.example',
      '\u0438\u0432\u0430\u043d@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444',
    ]) {
      expect(emailSchema.safeParse(address).success, address).toBe(true);
    }
  });

  it('refuses group syntax, quoted local parts, comments and anything else that is not one plain mailbox', () => {
    for (const address of [
      'g:victim@ex.com;',
      '"victim"@ex.com',
      '"vic tim"@ex.com',
      'v(comment)@ex.com',
      'Name <victim@ex.com>',
      'victim@ex.com,other@ex.com',
      '.victim@ex.com',
      'victim.@ex.com',
      'vic..tim@ex.com',
      'victim@[192.0.2.1]',
      'victim@192.0.2.1',
      'victim@-ex.com',
      'victim@ex-.com',
      'victim@ex_ample.com',
      'victim@ex..com',
      'victim@localhost',
    ]) {
      expect(emailSchema.safeParse(address).error?.issues[0]?.message, address).toBe(MESSAGES.emailInvalid);
    }
  });
});
