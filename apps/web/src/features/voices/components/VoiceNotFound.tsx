// What a Voice's pages show for an address that names no Voice the person may see: that it does
// not exist (see ../voice-missing.ts), not that something failed, with the way back.
import { Button, Card, Stack, Text } from '@mantine/core';
import { IconLayoutDashboard } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { VOICE_MISSING_WORDS, type VoiceMissing } from '../voice-missing';

export const VOICE_NOT_FOUND_TITLE = 'Voice not found';

export function VoiceNotFound({ missing, withBack }: { missing: Exclude<VoiceMissing, null>; withBack: boolean }) {
  return (
    <Card data-testid="voice-not-found">
      <Stack gap="md" align="flex-start">
        <Text>{VOICE_MISSING_WORDS[missing]}</Text>
        {withBack && (
          <Button
            component={Link}
            to={PATHS.dashboard}
            variant="default"
            leftSection={<IconLayoutDashboard size={18} />}
          >
            Back to My Voices
          </Button>
        )}
      </Stack>
    </Card>
  );
}
