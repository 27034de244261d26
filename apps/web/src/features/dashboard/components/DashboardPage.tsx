// /dashboard: the user's Voices as cards, with the empty state before the
// first one.
import { Button, Center, Loader, SimpleGrid, Stack } from '@mantine/core';
import { IconPlus, IconRefresh, IconWorld } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { errorMessage } from '../../../lib/api-error';
import { PATHS } from '../../../lib/paths';
import { useCurrentUser } from '../../../lib/session/session-context';
import { useAdvanceOnboarding } from '../../../lib/session/use-advance-onboarding';
import { useMyVoices } from '../hooks/use-my-voices';
import { useVoiceActions } from '../hooks/use-voice-actions';
import { convertPressAdvances } from '../onboarding';
import { DashboardTour } from './DashboardTour';
import { EmptyVoices } from './EmptyVoices';
import { PrioritySupportBanner } from './PrioritySupportBanner';
import { VoiceCard } from './VoiceCard';
import { type VoiceDialog, VoiceDialogs } from './VoiceDialogs';

const FETCH_FAILED = 'Failed to fetch LoRAs';

function VoiceList() {
  const { voices, query, holds } = useMyVoices();
  const actions = useVoiceActions(holds);
  const [dialog, setDialog] = useState<VoiceDialog>(null);
  const step = useCurrentUser().onboarding.step;
  const advance = useAdvanceOnboarding();
  const onConvert = () => {
    if (convertPressAdvances(step)) advance('activation_tour_complete');
  };

  if (query.isPending) {
    return (
      <Center py={64}>
        <Loader aria-label="Loading your Voices" />
      </Center>
    );
  }
  if (query.isError && voices.length === 0) {
    return (
      <Stack align="flex-start">
        <ErrorAlert message={errorMessage(query.error, FETCH_FAILED)} />
        <Button variant="default" leftSection={<IconRefresh size={18} />} onClick={() => void query.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {/* A failed background refresh keeps the cards and says so. */}
      {query.isError && <ErrorAlert message={errorMessage(query.error, FETCH_FAILED)} />}
      {voices.length === 0 ? (
        <EmptyVoices />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" data-testid="voice-grid">
          {voices.map((voice) => (
            <VoiceCard
              key={voice._id}
              voice={voice}
              onWake={(v) => actions.wake(v._id)}
              onConvert={onConvert}
              onSleep={(v) => actions.sleep(v._id)}
              onRename={(v) => setDialog({ kind: 'rename', voice: v })}
              onToggleVisibility={(v) => setDialog({ kind: 'visibility', voice: v })}
              onDelete={(v) => setDialog({ kind: 'delete', voice: v })}
            />
          ))}
        </SimpleGrid>
      )}
      <DashboardTour voices={voices} />
      <VoiceDialogs
        dialog={dialog}
        onClose={() => setDialog(null)}
        onRename={actions.rename}
        onDelete={(v) => actions.remove(v._id)}
        onSetVisibility={(v, isPublic) => actions.setVisibility(v._id, isPublic)}
      />
    </Stack>
  );
}

export function DashboardPage() {
  return (
    <Page
      title="My Voices"
      description="Train, wake and use your writing Voices."
      actions={
        <>
          <Button component={Link} to={PATHS.publicVoices} variant="default" leftSection={<IconWorld size={18} />}>
            Public Voices
          </Button>
          <Button component={Link} to={PATHS.createVoice} leftSection={<IconPlus size={18} />}>
            Create New Voice
          </Button>
        </>
      }
    >
      <PrioritySupportBanner />
      <VoiceList />
    </Page>
  );
}
