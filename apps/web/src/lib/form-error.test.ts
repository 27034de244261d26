import { changePasswordBodySchema, forgotPasswordBodySchema, MESSAGES } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { FormError, parseForm } from './form-error';

describe('parseForm', () => {
  it("answers the schema's output", () => {
    expect(parseForm(forgotPasswordBodySchema, { email: '  Writer@Example.com ' })).toEqual({
      email: 'writer@example.com',
    });
  });

  it('throws a FormError with the first broken rule', () => {
    expect(() => parseForm(forgotPasswordBodySchema, { email: '' })).toThrow(FormError);
    expect(() => parseForm(forgotPasswordBodySchema, { email: '' })).toThrow(MESSAGES.emailRequired);
    expect(() => parseForm(changePasswordBodySchema, { currentPassword: '', password: 'x' })).toThrow(
      'Enter your current password.',
    );
  });
});
