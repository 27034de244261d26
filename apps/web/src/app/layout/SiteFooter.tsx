import { Anchor, Box, Container, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { COMMUNITY_CHAT_URL, PRODUCT_NAME } from '@ownvoice/shared';
import { Link } from 'react-router';
import { ExternalLink } from '../../components/ExternalLink';
import { Logo } from '../../components/Logo';
import { PATHS } from '../../lib/paths';

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <Box
      component="footer"
      bg="gray.0"
      py={40}
      mt="auto"
      style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
    >
      <Container>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xl">
          <Stack gap="xs">
            <Logo size={28} />
            <Text fz="sm" c="dimmed">
              Your writing style, learned once and used everywhere.
            </Text>
          </Stack>
          <Stack gap={6}>
            <Text fw={700} fz="sm">
              Product
            </Text>
            <Anchor component={Link} to={PATHS.about} fz="sm" c="dimmed">
              About
            </Anchor>
            <Anchor component={Link} to={PATHS.howTo} fz="sm" c="dimmed">
              How To
            </Anchor>
            <Anchor component={Link} to={PATHS.download} fz="sm" c="dimmed">
              Offline app
            </Anchor>
            <Anchor component={Link} to={PATHS.privacy} fz="sm" c="dimmed">
              Privacy Policy
            </Anchor>
            <ExternalLink href={COMMUNITY_CHAT_URL} fz="sm" c="dimmed">
              Community chat
            </ExternalLink>
          </Stack>
          <Stack gap={6}>
            <Text fw={700} fz="sm">
              Refunds
            </Text>
            <Text fz="sm" c="dimmed">
              To get a refund, message the founder in our{' '}
              {/* A link inside text stands out by more than colour: underlined. */}
              <ExternalLink href={COMMUNITY_CHAT_URL} fz="sm" underline="always">
                community chat
              </ExternalLink>
              , preferably by direct message: we need to ask for the e-mail address you signed up with.
            </Text>
          </Stack>
        </SimpleGrid>
        <Group
          justify="space-between"
          mt="xl"
          pt="md"
          gap="xs"
          style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
        >
          <Text fz="xs" c="dimmed">
            © {year} {PRODUCT_NAME}. All rights reserved.
          </Text>
          <Group gap="md">
            <Anchor component={Link} to={PATHS.privacy} fz="xs" c="dimmed">
              Privacy Policy
            </Anchor>
            <ExternalLink href={COMMUNITY_CHAT_URL} fz="xs" c="dimmed">
              Community chat
            </ExternalLink>
          </Group>
        </Group>
      </Container>
    </Box>
  );
}
