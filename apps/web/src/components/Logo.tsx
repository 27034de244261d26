import { Group, Text } from '@mantine/core';
import { PRODUCT_NAME } from '@ownvoice/shared';

/** The speech-bubble mark, drawn inline so it needs no asset request. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="ov-logo-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7048e8" />
          <stop offset="1" stopColor="#4263eb" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill="url(#ov-logo-gradient)" />
      <path d="M18 22c0-2.2 1.8-4 4-4h20c2.2 0 4 1.8 4 4v14c0 2.2-1.8 4-4 4H30l-8 7v-7c-2.2 0-4-1.8-4-4z" fill="#fff" />
      <path d="M25 29.5h3m4-4v8m4-6v4m4-2h0" stroke="#5f3dc4" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark size={size} />
      <Text fw={800} fz={size >= 32 ? 'xl' : 'lg'} c="var(--mantine-color-text)" style={{ letterSpacing: '-0.02em' }}>
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}
