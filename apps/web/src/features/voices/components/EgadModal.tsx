// A humorous stop when the chosen files would pass 50 MB together.
import { Button, Group, List, Stack, Text } from '@mantine/core';
import { Dialog } from '../../../components/Dialog';

export function EgadModal({ fileNames, onClose }: { fileNames: string[]; onClose: () => void }) {
  return (
    <Dialog opened={fileNames.length > 0} onClose={onClose} title="EGAD!" centered data-testid="egad-modal">
      <Stack gap="md">
        <Text fz="sm">
          That is more than 50 MB of writing. Our trainer took one look, loosened its collar and had to sit down. A
          Voice needs about 40,000 characters to sound like you, not the complete works.
        </Text>
        <Text fz="sm" fw={600}>
          Left out to keep the total under 50 MB:
        </Text>
        <List fz="sm" spacing={2}>
          {fileNames.map((name) => (
            <List.Item key={name} style={{ wordBreak: 'break-all' }}>
              {name}
            </List.Item>
          ))}
        </List>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            Got it
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
