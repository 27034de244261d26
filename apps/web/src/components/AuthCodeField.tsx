// The second-factor code a sensitive change asks for while two-factor is on: a code from the
// authenticator app or a backup code, filtered as sign-in filters it.
import { TextInput } from '@mantine/core';
import { filterLoginCodeInput } from '@ownvoice/shared';

export function AuthCodeField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      label="Authentication code"
      description="Two-factor is on for this account: the code from your authenticator app, or a backup code."
      name="mfaToken"
      autoComplete="one-time-code"
      value={value}
      onChange={(event) => onChange(filterLoginCodeInput(event.currentTarget.value))}
    />
  );
}
