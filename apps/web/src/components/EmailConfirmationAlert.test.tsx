import { describe, expect, it } from 'vitest';
import { renderHtml, textOf } from '../lib/test-render';
import { EmailConfirmationAlert } from './EmailConfirmationAlert';

describe('EmailConfirmationAlert', () => {
  it('says what to do, with Send again and an empty live region for its answer', () => {
    const html = renderHtml(<EmailConfirmationAlert notice="Confirm your address first: open the link." />);
    expect(textOf(html)).toContain('Confirm your address first: open the link. Send again');
    expect(html).toMatch(/role="status"[^>]*data-testid="resend-confirmation-status"/);
  });

  it('is nothing without a notice', () => {
    expect(textOf(renderHtml(<EmailConfirmationAlert notice={null} />))).toBe('');
  });
});
