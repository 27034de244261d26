// The Voice selector of Convert and Create: the user's awake Voices by name.
import { Select } from '@mantine/core';
import type { Voice } from '@ownvoice/shared';
import type { CSSProperties } from 'react';

export interface VoicePickerProps {
  awake: readonly Voice[];
  /** The list is still loading. */
  loading: boolean;
  value: string | null;
  onChange: (id: string | null) => void;
  disabled?: boolean;
  testId: string;
  style?: CSSProperties;
}

export function VoicePicker({ awake, loading, value, onChange, disabled = false, testId, style }: VoicePickerProps) {
  return (
    <Select
      label="Voice"
      placeholder={loading ? 'Loading Voices…' : 'Pick an awake Voice'}
      data={awake.map((voice) => ({ value: voice._id, label: voice.name }))}
      value={value}
      onChange={onChange}
      disabled={disabled || awake.length === 0}
      allowDeselect={false}
      nothingFoundMessage="No awake Voices"
      style={style}
      data-testid={testId}
    />
  );
}
