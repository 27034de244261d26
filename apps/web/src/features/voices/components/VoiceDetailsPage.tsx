// /dashboard/loras/:id: one Voice's facts (the base model it was trained on among them, with a
// notice when this server runs another) and how well it writes like its author, and its owner's
// download of it.
import { Button, Card, Center, Code, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Voice } from '@ownvoice/shared';
import { IconArrowLeft, IconProgress } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { EvaluationChart } from '../../../components/EvaluationChart';
import { EvaluationSamples } from '../../../components/EvaluationSamples';
import { Page } from '../../../components/Page';
import { VoiceStatusBadge } from '../../../components/VoiceStatusBadge';
import { errorMessage } from '../../../lib/api-error';
import { formatCount, formatDate } from '../../../lib/format';
import { PATHS, voiceTrainingPath } from '../../../lib/paths';
import { useVoice } from '../hooks/use-voice';
import { isTrainingStatus } from '../training-status';
import { voiceMissing } from '../voice-missing';
import { DownloadVoiceButton } from './DownloadVoiceButton';
import { BaseModelFact, BaseModelNotice } from './VoiceBaseModel';
import { VOICE_NOT_FOUND_TITLE, VoiceNotFound } from './VoiceNotFound';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text component="div" fz="sm" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </Stack>
  );
}

function VoiceFacts({ voice }: { voice: Voice }) {
  return (
    <Card data-testid="voice-facts">
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="lg">
        <Fact label="Status">
          <VoiceStatusBadge status={voice.status} />
        </Fact>
        <Fact label="Trained on">
          {voice.characters != null ? `${formatCount(voice.characters)} characters` : 'Not recorded'}
        </Fact>
        <Fact label="Base model">
          <BaseModelFact baseModel={voice.baseModel} />
        </Fact>
        <Fact label="Created">{formatDate(voice.createdAt)}</Fact>
        <Fact label="Visibility">{voice.isPublic ? 'Public' : 'Private'}</Fact>
        {voice.isOwner === false && voice.ownerName && <Fact label="Shared by">{voice.ownerName}</Fact>}
        <Fact label="Voice ID">
          <Code>{voice._id}</Code>
        </Fact>
      </SimpleGrid>
      {voice.statusMessage && (
        <Text fz="sm" c={voice.status === 'failed' ? 'red.8' : 'dimmed'} mt="md">
          {voice.statusMessage}
        </Text>
      )}
    </Card>
  );
}

function EvaluationSection({ voice }: { voice: Voice }) {
  const { evaluation } = voice;
  return (
    <Card>
      <Stack gap="lg">
        <Title order={2} fz="lg">
          How well it writes like you
        </Title>
        {evaluation ? (
          <>
            <EvaluationChart evaluation={evaluation} />
            <Title order={3} fz="md">
              Sample rewrites
            </Title>
            {evaluation.samples.length > 0 ? (
              <EvaluationSamples samples={evaluation.samples} />
            ) : (
              <Text fz="sm" c="dimmed" data-testid="samples-missing">
                None here: samples quote the writing the Voice was trained on, so they stay with the Voice it was
                imported or forked from.
              </Text>
            )}
          </>
        ) : (
          <Text c="dimmed" data-testid="evaluation-missing">
            {isTrainingStatus(voice.status)
              ? 'The evaluation appears here when training finishes.'
              : 'There is no evaluation for this Voice. Forked Voices and Voices whose training failed have none.'}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function VoiceDetails({ voice }: { voice: Voice }) {
  return (
    <Stack gap="lg">
      <BaseModelNotice baseModel={voice.baseModel} />
      <VoiceFacts voice={voice} />
      <EvaluationSection voice={voice} />
    </Stack>
  );
}

export function VoiceDetailsPage() {
  const { id = '' } = useParams();
  const query = useVoice(id);
  const voice = query.data;
  const missing = voiceMissing(id, query.error);
  return (
    <Page
      title={
        voice ? (
          <span style={{ wordBreak: 'break-word' }}>{voice.name}</span>
        ) : missing ? (
          VOICE_NOT_FOUND_TITLE
        ) : (
          'Voice details'
        )
      }
      documentTitle={missing ? VOICE_NOT_FOUND_TITLE : 'Voice details'}
      eyebrow={voice ? 'Voice details' : undefined}
      actions={
        <>
          {voice?.canDownload && <DownloadVoiceButton voice={voice} />}
          {voice && isTrainingStatus(voice.status) && (
            <Button
              component={Link}
              to={voiceTrainingPath(voice._id)}
              variant="light"
              leftSection={<IconProgress size={18} />}
            >
              See Progress
            </Button>
          )}
          <Button component={Link} to={PATHS.dashboard} variant="default" leftSection={<IconArrowLeft size={18} />}>
            Back to My Voices
          </Button>
        </>
      }
    >
      {missing ? (
        <VoiceNotFound missing={missing} withBack={false} />
      ) : query.isPending ? (
        <Center py="xl">
          <Loader aria-label="Loading Voice" />
        </Center>
      ) : voice ? (
        <VoiceDetails voice={voice} />
      ) : (
        <ErrorAlert message={errorMessage(query.error, 'Failed to fetch Voice')} />
      )}
    </Page>
  );
}
