// A platform without a signed build yet: how to run OwnVoice from its source there.
import { Code, Stack, Text } from '@mantine/core';

export function FromSourceCard() {
  return (
    <Stack gap="xs">
      <Text fz="sm">
        No signed build yet. Run it from the source: install Node.js 20.19 or newer and Python 3 with PyTorch, then in
        the source folder:
      </Text>
      <Code block>npm ci && npm start</Code>
      <Text fz="sm" c="dimmed">
        Then open the address it prints.
      </Text>
    </Stack>
  );
}
