import { Button, Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMicrophone, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { TRAINING_TIME_STATEMENT } from '../../../lib/training-time';

/** What every account sees before its first Voice. */
export function EmptyVoices() {
  return (
    <Card py={56} data-testid="voices-empty">
      <Stack align="center" ta="center" gap="md" maw={480} mx="auto">
        <ThemeIcon size={72} radius="xl" variant="light">
          <IconMicrophone size={36} />
        </ThemeIcon>
        <Title order={2} fz={{ base: 22, sm: 26 }}>
          Create Your First Voice
        </Title>
        <Text c="dimmed">
          A Voice is a private model of your writing style. Give it at least 20,000 characters of your own writing.{' '}
          {TRAINING_TIME_STATEMENT}
        </Text>
        <Button component={Link} to={PATHS.createVoice} size="md" leftSection={<IconPlus size={18} />}>
          Create Your First Voice
        </Button>
      </Stack>
    </Card>
  );
}
