import { Badge, Card, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { COMMUNITY_CHAT_URL, OFFLINE_APP } from '@ownvoice/shared';
import { IconBrandApple, IconBrandDebian, IconBrandWindows, IconCpu } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ExternalLink } from '../../../components/ExternalLink';
import { Page } from '../../../components/Page';
import { FromSourceCard } from './FromSourceCard';
import { LinuxDownloadCard } from './LinuxDownloadCard';

function PlatformCard({ icon, name, children }: { icon: ReactNode; name: string; children: ReactNode }) {
  return (
    <Card padding="lg">
      <Stack gap="sm">
        <Group gap="sm">
          <ThemeIcon size={44} radius="md" variant="light">
            {icon}
          </ThemeIcon>
          <Title order={2} fz="lg">
            {name}
          </Title>
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

export function DownloadPage() {
  return (
    <Page
      eyebrow="Offline app"
      title="OwnVoice on your own computer"
      description="A free desktop version of the whole service: it trains and runs Voices on your CPU, and nothing leaves your machine."
      actions={<Badge size="lg">Version {OFFLINE_APP.version}</Badge>}
    >
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <PlatformCard icon={<IconBrandDebian size={22} />} name="Linux (Debian, Ubuntu)">
          <LinuxDownloadCard />
        </PlatformCard>
        <PlatformCard icon={<IconBrandApple size={22} />} name="macOS">
          <FromSourceCard />
        </PlatformCard>
        <PlatformCard icon={<IconBrandWindows size={22} />} name="Windows x64">
          <FromSourceCard />
        </PlatformCard>
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
              Release notes are posted in our <ExternalLink href={COMMUNITY_CHAT_URL}>community chat</ExternalLink>.
            </Text>
          </Stack>
        </Group>
      </Card>
    </Page>
  );
}
