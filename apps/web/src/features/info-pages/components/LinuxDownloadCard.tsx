// The Linux card of /download: the packages this server has, or how to build one from the source.
import { Button, Code, Loader, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { formatFileSize } from '../../../lib/format';
import { useDownloads } from '../downloads-api';

export function LinuxDownloadCard() {
  const { data, isPending } = useDownloads();
  if (isPending) return <Loader size="sm" aria-label="Looking for packages" />;
  const builds = data?.builds ?? [];
  if (builds.length === 0) {
    return (
      <Stack gap="xs" data-testid="linux-build-it">
        <Text fz="sm">
          This server has no package yet. Build one for Debian or Ubuntu from the source, on the computer that will run
          it:
        </Text>
        <Code block>npm ci && npm run package:deb</Code>
        <Text fz="sm" c="dimmed">
          It is written to dist/packages/ and appears here.
        </Text>
      </Stack>
    );
  }
  const [newest] = builds;
  return (
    <Stack gap="xs" align="flex-start">
      {builds.map((build) => (
        <Button
          key={build.file}
          component="a"
          href={build.url}
          download={build.file}
          leftSection={<IconDownload size={16} />}
          data-testid="linux-download"
        >
          Download .deb ({build.arch}, {formatFileSize(build.sizeBytes)})
        </Button>
      ))}
      <Text fz="sm">Install it, then start OwnVoice from the menu or a terminal:</Text>
      {/* Wrapped, not scrolled: a long package name would make a box only a mouse can scroll. */}
      <Code block w="100%" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {`sudo apt install ./${newest?.file ?? ''}\nownvoice`}
      </Code>
      <Text fz="sm" c="dimmed">
        Your Voices and texts stay in ~/.local/share/ownvoice, also when the package is removed.
      </Text>
    </Stack>
  );
}
