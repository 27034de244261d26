// /dashboard/convert?loraId={id}: pick an awake Voice (the optional loraId preselects one), write
// or paste text, convert it chunk by chunk, optionally proofread every chunk (edit pass), then edit
// and copy.
import { Button, Card, Checkbox, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { CONVERT_MESSAGES } from '@ownvoice/shared';
import { IconSparkles } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { AwakeVoicesNotice } from '../../../components/AwakeVoicesNotice';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { RewriteOutput } from '../../../components/RewriteOutput';
import { VoicePicker } from '../../../components/VoicePicker';
import { isBusy, statusTexts } from '../../../lib/rewrite/conversion';
import { useRewriteOutput } from '../../../lib/rewrite/use-rewrite-output';
import { useCurrentUser } from '../../../lib/session/session-context';
import { useVoiceChoice } from '../../../lib/voice-choice';
import { useConversion } from '../hooks/use-conversion';
import { useConvertOnboarding } from '../hooks/use-convert-onboarding';
import { showsConvertTour, showsFirstConversionPrompt } from '../onboarding';
import { submitLabel } from '../submit-label';
import { ChunkList } from './ChunkList';
import { ConvertQuickstart, ConvertTour, FirstConversionDone, SAMPLE_TEXT } from './ConvertGuides';
import type { MarkdownEditorHandle } from './MarkdownEditor';

// The editor (Tiptap and its markdown parser) is the heaviest part of the app: loaded with this page only.
const MarkdownEditor = lazy(() => import('./MarkdownEditor').then((module) => ({ default: module.MarkdownEditor })));

export function ConvertPage() {
  const user = useCurrentUser();
  const step = user.onboarding.step;
  const { awake, query: voicesQuery, selectedId, choose } = useVoiceChoice();
  const { state, start } = useConversion();
  const onboarding = useConvertOnboarding(user.id || user._id, step, awake.length > 0);
  const { onConversionComplete } = onboarding;

  const editorRef = useRef<MarkdownEditorHandle>(null);
  const [textIsBlank, setTextIsBlank] = useState(true);
  const [formError, setFormError] = useState<string | null>(null);
  const [editPass, setEditPass] = useState(false);
  const editPassRef = useRef(editPass);
  useEffect(() => {
    editPassRef.current = editPass;
  }, [editPass]);

  const chooseVoice = (id: string | null) => {
    setFormError(null);
    choose(id);
  };

  const output = useRewriteOutput(state);
  const resetOutput = output.reset;
  const busy = isBusy(state);

  const noAwakeVoices = voicesQuery.isSuccess && awake.length === 0;
  const submitDisabled = selectedId === null || awake.length === 0;

  const submit = useCallback(() => {
    if (selectedId === null) {
      setFormError(CONVERT_MESSAGES.selectVoice);
      return;
    }
    const text = editorRef.current?.getMarkdown() ?? '';
    if (text.trim() === '') {
      setFormError(CONVERT_MESSAGES.emptyText);
      return;
    }
    setFormError(null);
    resetOutput();
    start({
      loraId: selectedId,
      text,
      editPassEnabled: () => editPassRef.current,
      onComplete: onConversionComplete,
    });
  }, [selectedId, start, onConversionComplete, resetOutput]);

  const useSample = () => {
    editorRef.current?.setMarkdown(SAMPLE_TEXT);
    editorRef.current?.focus();
  };

  return (
    <Page title="Convert" description="Rewrite any text in the style of one of your Voices.">
      {/* One panel at a time: the tour, then the quickstart, then the word after a first conversion. */}
      {showsConvertTour(step) && !onboarding.tour.dismissed ? (
        voicesQuery.isSuccess && <ConvertTour hasAwakeVoice={awake.length > 0} onClose={onboarding.tour.dismiss} />
      ) : showsFirstConversionPrompt(step, textIsBlank) && !onboarding.quickstart.dismissed ? (
        <ConvertQuickstart onUseSample={useSample} onClose={onboarding.quickstart.dismiss} />
      ) : (
        onboarding.firstConversionDone && <FirstConversionDone onClose={onboarding.closeFirstConversionDone} />
      )}

      <Card padding="lg">
        <Stack gap="sm">
          <Group align="flex-end" gap="md" wrap="wrap">
            <VoicePicker
              awake={awake}
              loading={voicesQuery.isPending}
              value={selectedId}
              onChange={chooseVoice}
              style={{ flex: '1 1 220px' }}
              testId="convert-voice-select"
            />
            <Checkbox
              label="Edit pass"
              description="Proofread each chunk against your text"
              checked={editPass}
              onChange={(event) => setEditPass(event.currentTarget.checked)}
              data-testid="convert-edit-pass"
            />
            <Button
              onClick={submit}
              disabled={submitDisabled}
              leftSection={<IconSparkles size={18} />}
              data-testid="convert-submit"
            >
              {submitLabel(state)}
            </Button>
          </Group>
          <AwakeVoicesNotice
            noAwakeVoices={noAwakeVoices}
            testId="convert-no-voices"
            error={voicesQuery.isError ? voicesQuery.error : null}
            fallbackError={CONVERT_MESSAGES.fetchVoicesFailed}
            onRetry={() => void voicesQuery.refetch()}
          />
        </Stack>
      </Card>

      <ErrorAlert message={formError} onClose={() => setFormError(null)} />
      {state.phase === 'error' && <ErrorAlert message={state.error} />}

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="xs">
          <Text fw={600}>Your text</Text>
          <Suspense fallback={<Skeleton height={340} radius="md" aria-label="Loading the editor" />}>
            <MarkdownEditor ref={editorRef} onBlankChange={setTextIsBlank} />
          </Suspense>
        </Stack>
        <RewriteOutput
          testIdPrefix="convert"
          title="Converted text"
          label="Converted text"
          placeholder="Your text, in your Voice, appears here."
          textTestId="convert-output"
          plainViewLabel="View rephrased"
          value={output.text}
          onChange={output.edit}
          readOnly={busy}
          statuses={statusTexts(state)}
          view={output.view}
          onToggleView={output.toggleView}
        />
      </SimpleGrid>

      <ChunkList chunks={state.chunks} />
    </Page>
  );
}
