// What an admin may read of a message: each key in its links masked, everything else as written.
import { MASKED_KEY } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { maskLinkKeys } from './mask-keys.js';

const KEY = 'KJoBlM506xIRz9M21di1cpentZzT_47KEH7HsQ6DSr4';

describe('maskLinkKeys', () => {
  it('masks reset, confirmation and invitation keys, however long', () => {
    const { text, masked } = maskLinkKeys(
      `Reset: https://ov.example/auth/reset?token=${KEY}\n\nConfirm: https://ov.example/auth/verify?token=short-one\n\nInvite: https://ov.example/invite/${KEY}`,
    );
    expect(masked).toBe(true);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('short-one');
    expect(text).toBe(
      `Reset: https://ov.example/auth/reset?token=${MASKED_KEY}\n\nConfirm: https://ov.example/auth/verify?token=${MASKED_KEY}\n\nInvite: https://ov.example/invite/${MASKED_KEY}`,
    );
  });

  it('masks any other long key in a link (a payment page), and leaves ids and plain text', () => {
    const pay = `https://invoice.stripe.com/i/acct_1Abc/live_${'YWNjdF8xTXZ'.repeat(4)}?s=ap`;
    const voice = 'https://ov.example/dashboard/loras/65a1b2c3d4e5f60718293a4b';
    const uuid = 'https://ov.example/x/6f1c2b9e-4d3a-4c5b-9a8e-1f2d3c4b5a69';
    const { text, masked } = maskLinkKeys(`Pay: ${pay}\nVoice: ${voice}\nOther: ${uuid}\nA ${KEY} outside a link.`);
    expect(masked).toBe(true);
    expect(text).toContain(`https://invoice.stripe.com/i/acct_1Abc/${MASKED_KEY}?s=ap`);
    expect(text).toContain(voice);
    expect(text).toContain(uuid);
    expect(text).toContain(`A ${KEY} outside a link.`);
  });

  it('says when nothing was masked', () => {
    expect(maskLinkKeys('Open OwnVoice: https://ov.example/login')).toEqual({
      text: 'Open OwnVoice: https://ov.example/login',
      masked: false,
    });
  });
});
