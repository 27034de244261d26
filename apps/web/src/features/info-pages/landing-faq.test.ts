import { describe, expect, it } from 'vitest';
import { LANDING_FAQ } from './landing-faq';

const answer = (id: string) => LANDING_FAQ.find((item) => item.id === id)?.answer.join(' ') ?? '';

describe('LANDING_FAQ', () => {
  it('gives the amounts of writing the product asks for', () => {
    expect(answer('writing')).toContain('At least 20,000 characters');
    expect(answer('writing')).toContain('About 40,000 (around 6,000 words');
    expect(answer('writing')).toContain('up to about 200,000');
    expect(answer('writing')).toContain('.docx');
  });

  it('says uploads stay private and forks carry none of the writing', () => {
    expect(answer('privacy')).toContain('private by default');
    expect(answer('privacy')).toContain('not even the evaluation samples');
  });

  it('says a cancelled plan runs to the end of its period and can be reactivated', () => {
    expect(answer('plans')).toContain('Cancel any time');
    expect(answer('plans')).toContain('end of the period');
    expect(answer('plans')).toContain('reactivate');
    expect(answer('plans')).toContain('20% less');
  });

  it('links the offline question to the download page', () => {
    expect(LANDING_FAQ.find((item) => item.id === 'offline')?.link?.to).toBe('/download');
  });

  it('has one entry per id', () => {
    expect(new Set(LANDING_FAQ.map((item) => item.id)).size).toBe(LANDING_FAQ.length);
  });
});
