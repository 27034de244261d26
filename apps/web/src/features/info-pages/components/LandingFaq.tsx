// The FAQ, from landing-faq.ts.
import { Accordion, Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LANDING_FAQ } from '../landing-faq';

export function LandingFaq() {
  return (
    <Container size="md" py={{ base: 48, sm: 72 }} id="faq">
      <Stack gap="xl">
        <Title order={2} ta="center">
          Questions
        </Title>
        <Accordion multiple variant="separated" radius="md" data-testid="landing-faq">
          {LANDING_FAQ.map((item) => (
            <Accordion.Item key={item.id} value={item.id} data-testid={`faq-${item.id}`}>
              <Accordion.Control>
                <Text fw={600}>{item.question}</Text>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="xs">
                  {item.answer.map((paragraph) => (
                    <Text key={paragraph} c="dimmed">
                      {paragraph}
                    </Text>
                  ))}
                  {item.link && (
                    <Anchor component={Link} to={item.link.to} fw={600}>
                      {item.link.label}
                    </Anchor>
                  )}
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </Stack>
    </Container>
  );
}
