import { Badge, Button, Card, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { COMMUNITY_CHAT_URL, OFFLINE_APP } from '@ownvoice/shared';
import { IconBrandApple, IconBrandDebian, IconBrandWindows, IconCpu, IconDeviceDesktop } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Page } from '../../../components/Page';

function buildIcon(build: string): ReactNode {
  if (build.startsWith('macOS')) return <IconBrandApple size={22} />;
  if (build.startsWith('Windows')) return <IconBrandWindows size={22} />;
  if (build.startsWith('Linux')) return <IconBrandDebian size={22} />;
  return <IconDeviceDesktop size={22} />;
}

export function DownloadPage() {
  return (
    <Page
      eyebrow="Offline app"
      title="OwnVoice on your own computer"
      description="A free, open-source desktop app that trains and runs Voices locally, on your CPU. Nothing leaves your machine."
      actions={<Badge size="lg">Version {OFFLINE_APP.version}</Badge>}
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        {OFFLINE_APP.builds.map((build) => (
          <Card key={build} padding="lg">
            <Stack gap="sm" align="flex-start">
              <ThemeIcon size={44} radius="md" variant="light">
                {buildIcon(build)}
              </ThemeIcon>
              <Text fw={700}>{build}</Text>
              <Text fz="sm" c="dimmed">
                Version {OFFLINE_APP.version}
              </Text>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      <Card>
        <Group align="flex-start" gap="lg" wrap="nowrap">
          <ThemeIcon size={44} radius="md" variant="light" color="gray">
            <IconCpu size={24} />
          </ThemeIcon>
          <Stack gap="xs">
            <Title order={2} fz="lg">
              System requirements
            </Title>
            <List spacing={4}>
              <List.Item>
                {OFFLINE_APP.ramGb} GB of RAM ({OFFLINE_APP.ramRecommendedGb} GB recommended)
              </List.Item>
              <List.Item>{OFFLINE_APP.diskGb} GB of free disk space</List.Item>
              <List.Item>Runs on the CPU: no graphics card needed</List.Item>
            </List>
            <Text fz="sm" c="dimmed">
              The download links for each release are posted in our community chat, together with release notes.
            </Text>
            <Group>
              <Button component="a" href={COMMUNITY_CHAT_URL} target="_blank" rel="noopener noreferrer">
                Get the download links
              </Button>
            </Group>
          </Stack>
        </Group>
      </Card>
    </Page>
  );
}
