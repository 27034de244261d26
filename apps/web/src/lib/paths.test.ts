import { describe, expect, it } from 'vitest';
import { convertPath, userActivityPath, voicePath, voiceTrainingPath } from './paths';

describe('paths', () => {
  it('fills the route patterns with an encoded id', () => {
    expect(voicePath('abc')).toBe('/dashboard/loras/abc');
    expect(voiceTrainingPath('abc')).toBe('/dashboard/loras/abc/training');
    expect(userActivityPath('a/b$&')).toBe('/admin/users/a%2Fb%24%26/activity');
  });

  it('preselects a Voice on Convert only when one is given', () => {
    expect(convertPath('abc')).toBe('/dashboard/convert?loraId=abc');
    expect(convertPath()).toBe('/dashboard/convert');
  });
});
