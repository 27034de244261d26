// The ten backup codes, shown once after two-factor is turned on: copy them or download them as
// a text file, since the server keeps only their hashes.
import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { PRODUCT_NAME } from '@ownvoice/shared';
import { IconDownload } from '@tabler/icons-react';
import { CopyTextButton } from '../../../components/CopyTextButton';
import { Dialog } from '../../../components/Dialog';
import { saveFile } from '../../../lib/save-file';

export const backupCodesText = (codes: readonly string[], issuedAt: Date): string =>
  [
    `${PRODUCT_NAME} backup codes (issued ${issuedAt.toISOString().slice(0, 10)})`,
    'Each code signs you in once when your authenticator app is not at hand.',
    '',
    ...codes,
    '',
  ].join('\n');

const download = (text: string) =>
  saveFile('ownvoice-backup-codes.txt', new Blob([text], { type: 'text/plain;charset=utf-8' }));

export function BackupCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  const text = codes ? backupCodesText(codes, new Date()) : '';
  return (
    <Dialog
      opened={codes !== null}
      onClose={onClose}
      title="Save your backup codes"
      centered
      data-testid="backup-codes-dialog"
    >
      <Stack gap="md">
        <Text fz="sm">
          Two-factor is on. Keep these codes somewhere safe: each one signs you in once if you lose your phone. They are
          shown only now.
        </Text>
        <SimpleGrid cols={2} spacing="xs" data-testid="backup-codes">
          {codes?.map((code) => (
            <Text key={code} ff="monospace" fw={600} ta="center" p={6} bg="gray.0" style={{ borderRadius: 6 }}>
              {code}
            </Text>
          ))}
        </SimpleGrid>
        <Group justify="space-between">
          <Group gap="xs">
            <CopyTextButton value={codes?.join('\n') ?? ''} testId="copy-backup-codes" />
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconDownload size={16} />}
              onClick={() => download(text)}
            >
              Download .txt
            </Button>
          </Group>
          <Button onClick={onClose}>I have saved them</Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
