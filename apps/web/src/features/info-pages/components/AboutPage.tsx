import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { COMMUNITY_CHAT_URL } from '@ownvoice/shared';
import { Link } from 'react-router';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

const FACTS = [
  { title: 'Your style, not an average', text: 'Each Voice is a private model trained only on writing you provide.' },
  {
    title: 'Two ways to write',
    text: 'Convert rewrites text you already have; Create drafts new content from a prompt.',
  },
  {
    title: 'Built for people who publish',
    text: 'Business owners and writers: blog posts, social content, e-mails, ad copy, speeches.',
  },
];

export function AboutPage() {
  return (
    <Page
      eyebrow="About"
      title="Writing help that still sounds like you"
      description="OwnVoice learns a person's writing style from their own texts and then writes in it."
      size="md"
    >
      <Stack gap="lg">
        <Text fz="lg">
          Language models are great at producing words and terrible at producing <em>your</em> words. Everything they
          write lands in the same polished, forgettable register. OwnVoice takes a different route: you give it samples
          of your own writing, it trains a private writing-style model (we call it a Voice) on them, and from then on
          every draft is rewritten in your tone, rhythm and vocabulary.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {FACTS.map((fact) => (
            <Card key={fact.title} padding="lg">
              <Title order={2} fz="md" mb={6}>
                {fact.title}
              </Title>
              <Text c="dimmed" fz="sm">
                {fact.text}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
        <Text>
          OwnVoice is in early beta with a limited number of places. Expect rough edges, and tell us about them in the
          community chat: it is the fastest way to get something fixed.
        </Text>
        <Group>
          <Button component={Link} to={PATHS.howTo}>
            See how it works
          </Button>
          <Button component="a" href={COMMUNITY_CHAT_URL} target="_blank" rel="noopener noreferrer" variant="default">
            Join the community chat
          </Button>
        </Group>
      </Stack>
    </Page>
  );
}
