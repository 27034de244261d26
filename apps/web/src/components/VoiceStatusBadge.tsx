// A Voice's status as users read it: ready is "asleep", active is "awake", ... (VOICE_STATUS_LABELS).
import { Badge, type MantineColor } from '@mantine/core';
import { VOICE_STATUS_LABELS, type VoiceStatus } from '@ownvoice/shared';

const STATUS_COLORS: Record<VoiceStatus, MantineColor> = {
  ready: 'gray',
  active: 'teal',
  training: 'violet',
  activating: 'yellow',
  deactivating: 'orange',
  pending: 'blue',
  failed: 'red',
};

export function VoiceStatusBadge({ status }: { status: VoiceStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" data-testid="voice-status" data-status={status}>
      {VOICE_STATUS_LABELS[status]}
    </Badge>
  );
}
