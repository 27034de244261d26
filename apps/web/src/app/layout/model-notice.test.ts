// What the model notice tells people, by which model stands in for the default.
import { describe, expect, it } from 'vitest';
import { modelNoticeText } from './ModelNotice';

describe('modelNoticeText', () => {
  it('says the smaller real model stands in, and what that means for a rewrite', () => {
    const text = modelNoticeText({ source: 'package', fallbackReason: 'cannot reach huggingface.co' });
    expect(text).toContain('smaller language model (SmolLM2-135M)');
    expect(text).toContain('keep less of your style');
    expect(text).toContain('OWNVOICE_BASE_MODEL');
  });

  it('says results will be rough on the built-in model', () => {
    expect(modelNoticeText({ source: 'house', fallbackReason: 'offline' })).toContain('results will be rough');
  });

  it('says nothing when the model asked for runs', () => {
    expect(modelNoticeText({ source: 'download', fallbackReason: null })).toBeNull();
    expect(modelNoticeText({ source: 'house', fallbackReason: null })).toBeNull();
  });
});
