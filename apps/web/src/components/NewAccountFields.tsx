// The fields a new account chooses, with registration's hints and input filters: a username, and
// a password typed twice. Sign-up and accepting an admin invitation use both; a reset link and
// the account page's password change use the password fields under their own labels.
import { PasswordInput, TextInput } from '@mantine/core';
import { filterUsernameInput, PASSWORD_MAX, USERNAME_MAX } from '@ownvoice/shared';

export function UsernameField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      label="Username"
      name="username"
      autoComplete="username"
      placeholder="your_name"
      description="Letters, numbers, underscores and hyphens"
      value={value}
      maxLength={USERNAME_MAX}
      onChange={(event) => onChange(filterUsernameInput(event.currentTarget.value))}
    />
  );
}

export interface NewPasswordFieldsProps {
  password: string;
  confirmPassword: string;
  onPassword: (value: string) => void;
  onConfirmPassword: (value: string) => void;
  /** The first field's label ("Password" at sign-up, "New password" where one is replaced). */
  passwordLabel?: string;
  confirmLabel?: string;
}

export function NewPasswordFields({
  password,
  confirmPassword,
  onPassword,
  onConfirmPassword,
  passwordLabel = 'Password',
  confirmLabel = 'Confirm password',
}: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordInput
        label={passwordLabel}
        name="password"
        autoComplete="new-password"
        description="8 or more characters with an uppercase letter, a lowercase letter and a number"
        value={password}
        maxLength={PASSWORD_MAX}
        onChange={(event) => onPassword(event.currentTarget.value)}
      />
      <PasswordInput
        label={confirmLabel}
        name="confirmPassword"
        autoComplete="new-password"
        value={confirmPassword}
        maxLength={PASSWORD_MAX}
        onChange={(event) => onConfirmPassword(event.currentTarget.value)}
      />
    </>
  );
}
