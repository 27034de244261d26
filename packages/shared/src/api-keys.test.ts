import { describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES, createApiKeyRequestSchema } from './api-keys.js';

const body = (overrides: Record<string, unknown>) => ({
  name: 'My editor',
  scopes: ['convert'],
  currentPassword: 'Passw0rdOk',
  ...overrides,
});

describe('making an API key', () => {
  it('asks for the current password, and takes a code when two-factor is on', () => {
    const withoutPassword = { name: 'My editor', scopes: ['convert'] };
    expect(createApiKeyRequestSchema.safeParse(withoutPassword).error?.issues[0]?.message).toBe(
      'Enter your current password.',
    );
    expect(createApiKeyRequestSchema.parse(body({ mfaToken: 'ABCD-efgh' })).mfaToken).toBe('abcdefgh');
  });

  it('cleans the name as a username is cleaned: NUL gone, trimmed, compatibility forms folded', () => {
    expect(createApiKeyRequestSchema.parse(body({ name: ' \uff2dy\u0000 editor ' })).name).toBe('My editor');
  });

  it('refuses a name with invisible or direction-changing characters', () => {
    for (const name of ['evil\u202etxt.exe', 'my\u200beditor', 'line\nbreak']) {
      expect(createApiKeyRequestSchema.safeParse(body({ name })).error?.issues[0]?.message, name).toBe(
        API_KEY_MESSAGES.nameInvisible,
      );
    }
  });
});
