import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_TWO_FACTOR_SETUP_PATH,
  adminDashboardPath,
  convertPath,
  invitationPath,
  userActivityPath,
  voicePath,
  voiceTrainingPath,
} from './paths';

describe('paths', () => {
  it('fills the route patterns with an encoded id', () => {
    expect(voicePath('abc')).toBe('/dashboard/loras/abc');
    expect(voiceTrainingPath('abc')).toBe('/dashboard/loras/abc/training');
    expect(userActivityPath('a/b$&')).toBe('/admin/users/a%2Fb%24%26/activity');
    expect(invitationPath('abc_DEF-123')).toBe('/invite/abc_DEF-123');
    expect(invitationPath('a/b')).toBe('/invite/a%2Fb');
  });

  it('links to an admin tab and to the account page with two-factor setup open', () => {
    expect(adminDashboardPath('users')).toBe('/admin/dashboard?tab=users');
    expect(ACCOUNT_TWO_FACTOR_SETUP_PATH).toBe('/dashboard/account?setup=two-factor');
  });

  it('preselects a Voice on Convert only when one is given', () => {
    expect(convertPath('abc')).toBe('/dashboard/convert?loraId=abc');
    expect(convertPath()).toBe('/dashboard/convert');
  });
});
