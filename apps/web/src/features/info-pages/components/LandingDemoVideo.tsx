// The demo video: the real Convert page on the small house model, filmed by `npm run demo:record`.
import { Box, Card, Container, Stack, Text, Title } from '@mantine/core';
import { DEMO_MEDIA } from '../demo-media';

export function LandingDemoVideo() {
  return (
    <Container size="lg" pb={{ base: 48, sm: 72 }} id="demo">
      <Stack gap="md">
        <Stack gap={6} ta="center" align="center">
          <Title order={2}>Watch a conversion</Title>
          <Text c="dimmed" maw={640}>
            Generic text goes in on the left, and comes back on the right in the Voice, streamed chunk by chunk.
          </Text>
        </Stack>
        <Card p={0} radius="lg" style={{ overflow: 'hidden' }}>
          <Box
            component="video"
            controls
            muted
            playsInline
            preload="metadata"
            poster={DEMO_MEDIA.poster}
            src={DEMO_MEDIA.video}
            width={1280}
            height={720}
            aria-label="Demo: converting generic text in a Voice"
            data-testid="landing-demo-video"
            style={{ display: 'block', width: '100%', height: 'auto', aspectRatio: '16 / 9', background: '#111' }}
          />
        </Card>
        <Text fz="sm" c="dimmed" ta="center" data-testid="landing-demo-caption">
          The real product, unedited, on the small house model that ships with OwnVoice for its tests (the service
          itself runs a larger base model). The Voice was trained on public-domain prose from the Jargon File.
        </Text>
      </Stack>
    </Container>
  );
}
