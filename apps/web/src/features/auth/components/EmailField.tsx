// The e-mail box both auth forms use: the same label, hints and length limit.
import { TextInput } from '@mantine/core';
import { EMAIL_MAX } from '@ownvoice/shared';

export function EmailField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      label="E-mail"
      name="email"
      type="email"
      autoComplete="email"
      placeholder="you@example.com"
      value={value}
      maxLength={EMAIL_MAX}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
