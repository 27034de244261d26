import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { COMMUNITY_CHAT_URL, PRIVACY_EFFECTIVE_DATE, PRODUCT_NAME } from '@ownvoice/shared';
import type { ReactNode } from 'react';
import { Page } from '../../../components/Page';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={2} fz="xl">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

export function PrivacyPage() {
  return (
    <Page title="Privacy Policy" description={`Effective ${PRIVACY_EFFECTIVE_DATE}`} size="md">
      <Stack gap="xl">
        <Text>
          This policy explains what {PRODUCT_NAME} collects when you use the service, why, and what you can do about it.
          We keep it short because we collect little.
        </Text>
        <Section title="What we collect">
          <List spacing="xs">
            <List.Item>Account details: your username, e-mail address and a hash of your password.</List.Item>
            <List.Item>The writing samples you upload to train a Voice, and the Voices trained from them.</List.Item>
            <List.Item>The text you convert or create, while it is being processed.</List.Item>
            <List.Item>Usage records (what you used, and when) so we can apply your plan's limits.</List.Item>
            <List.Item>
              Billing details, which our payment provider handles; we never see your full card number.
            </List.Item>
          </List>
        </Section>
        <Section title="How we use it">
          <Text>
            Only to run the service for you: to sign you in, train and run your Voices, apply your plan and answer your
            support requests. Your writing is never used to train models for anyone else, and we do not sell data.
          </Text>
        </Section>
        <Section title="Cookies and local storage">
          <Text>
            Your browser keeps a sign-in token in local storage and a security cookie that protects your account from
            forged requests. We use no advertising or tracking cookies.
          </Text>
        </Section>
        <Section title="Public Voices">
          <Text>
            A Voice stays private unless you make it public. A public Voice can be copied by other users; making it
            private again stops new copies but does not remove copies already made.
          </Text>
        </Section>
        <Section title="Keeping and deleting data">
          <Text>
            We keep your data while your account exists. Deleting your account deletes your samples and Voices. Records
            we must keep for tax and accounting are kept as long as the law requires.
          </Text>
        </Section>
        <Section title="Contact">
          <Text>
            Questions or requests about your data: message the founder in our{' '}
            <Anchor href={COMMUNITY_CHAT_URL} target="_blank" rel="noopener noreferrer">
              community chat
            </Anchor>
            .
          </Text>
        </Section>
      </Stack>
    </Page>
  );
}
