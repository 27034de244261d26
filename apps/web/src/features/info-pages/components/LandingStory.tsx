// The story-style pitch: the same newsletter written by a generic AI and by its writer.
import { Container, Stack, Text, Title } from '@mantine/core';

export function LandingStory() {
  return (
    <Container size="sm" pb={{ base: 48, sm: 72 }} data-testid="landing-story">
      <Stack gap="md">
        <Title order={2} ta="center">
          The newsletter nobody finished reading
        </Title>
        <Text fz="lg">
          Sunday night, Sam asks an AI tool for her bike shop’s newsletter. It comes back tidy and correct: “In today’s
          fast-paced world, cycling enthusiasts are embracing innovative solutions.” It could have come from any shop in
          the country, and her regulars can tell. They skim it and move on.
        </Text>
        <Text fz="lg">
          So she rewrites it the way she talks at the counter: short sentences, a grumble about the potholes on the high
          street, a thank-you to the customer who rode to work all winter. People reply to that one. It also costs her
          the evening.
        </Text>
        <Text fz="lg">
          OwnVoice is for that evening. Train a Voice on the newsletters and posts you have already written, and the
          generic draft comes back in your words and your rhythm, ready for you to check and send.
        </Text>
      </Stack>
    </Container>
  );
}
