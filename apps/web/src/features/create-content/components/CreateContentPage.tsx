// /dashboard/create-content: pick a mode and an awake Voice (kept in ?loraId=, as on Convert),
// describe the piece, then either generate it straight away (Quick: the draft streams on the left,
// the Voice's rewrite on the right, with the optional edit pass) or write it step by step
// (Interactive).
import { Button, Card, Checkbox, FileInput, Group, SegmentedControl, Select, Stack, Textarea } from '@mantine/core';
import {
  CONTENT_FORMAT_LABELS,
  CONTENT_FORMATS,
  CONVERT_MESSAGES,
  type ContentFormat,
  type InteractiveMode,
  MAX_PROMPT_CHARS,
  newInteractiveState,
  VOICE_FILE_EXTENSIONS,
} from '@ownvoice/shared';
import { IconFileText, IconSparkles } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { AwakeVoicesNotice } from '../../../components/AwakeVoicesNotice';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { VoicePicker } from '../../../components/VoicePicker';
import { hasUsableRewrite } from '../../../lib/rewrite/conversion';
import { useRewriteOutput } from '../../../lib/rewrite/use-rewrite-output';
import { browserStorage } from '../../../lib/session/browser-storage';
import { useCurrentUser } from '../../../lib/session/session-context';
import { useAdvanceOnboarding } from '../../../lib/session/use-advance-onboarding';
import { useTourDismissal } from '../../../lib/session/use-tour-dismissal';
import { useVoiceChoice } from '../../../lib/voice-choice';
import { CREATE_ERRORS, SAMPLE_PROMPT } from '../constants';
import { createFormError, referenceFileError } from '../form';
import { useCreateRun } from '../hooks/use-create-run';
import { useInteractiveSession } from '../hooks/use-interactive-session';
import { loadInteractiveState } from '../interactive-storage';
import { completesCreateQuickstart, showsCreateQuickstart, showsCreateTour } from '../onboarding';
import { canRerephrase, createStatusTexts, generateLabel, isCreateBusy } from '../quick-view';
import { CreateQuickstart, CreateTour, WrapUp } from './CreateGuides';
import { InteractiveWriter } from './interactive/InteractiveWriter';
import { QuickPanels } from './QuickPanels';
import { RewriteFailures } from './RewriteFailures';

type CreateMode = 'quick' | 'interactive';

const MODES: { value: CreateMode; label: string }[] = [
  { value: 'quick', label: 'Quick' },
  { value: 'interactive', label: 'Interactive' },
];

const FORMAT_OPTIONS = CONTENT_FORMATS.map((format) => ({ value: format, label: CONTENT_FORMAT_LABELS[format] }));

/** A saved interactive session (long first) decides where the screen opens, so a reload resumes it. */
function savedLength(userId: string): InteractiveMode | null {
  const storage = browserStorage();
  if (!storage) return null;
  if (loadInteractiveState(storage, userId, 'long')) return 'long';
  if (loadInteractiveState(storage, userId, 'short')) return 'short';
  return null;
}

export function CreateContentPage() {
  const user = useCurrentUser();
  const userId = user.id || user._id;
  const step = user.onboarding.step;
  const advance = useAdvanceOnboarding();
  const { awake, query: voicesQuery, selectedId, choose } = useVoiceChoice();

  const [initialLength] = useState(() => savedLength(userId));
  const [mode, setMode] = useState<CreateMode>(initialLength ? 'interactive' : 'quick');
  const [length, setLength] = useState<InteractiveMode>(initialLength ?? 'short');
  const [prompt, setPrompt] = useState('');
  const [format, setFormat] = useState<ContentFormat>('free');
  const [referenceFile, setReferenceFile] = useState<File | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [editPass, setEditPass] = useState(false);
  const editPassRef = useRef(editPass);
  useEffect(() => {
    editPassRef.current = editPass;
  }, [editPass]);

  // Onboarding panels. The quickstart fills in the sample prompt when it opens, and stays open
  // until finished, closed or the step moves on.
  const tour = useTourDismissal(userId, 'create', step);
  const quickstart = useTourDismissal(userId, 'create-quickstart', step);
  const [quickstartOpened, setQuickstartOpened] = useState(false);
  const [wrapUp, setWrapUp] = useState(false);
  const quickstartShown = quickstartOpened && completesCreateQuickstart(step) && !quickstart.dismissed;
  useEffect(() => {
    if (quickstartOpened || quickstart.dismissed || !showsCreateQuickstart(step, prompt.trim() === '')) return;
    setQuickstartOpened(true);
    setPrompt(SAMPLE_PROMPT);
  }, [step, prompt, quickstartOpened, quickstart.dismissed]);
  const finishQuickstart = useCallback(() => {
    if (!completesCreateQuickstart(step)) return;
    setWrapUp(true);
    advance('create_quickstart_complete');
  }, [step, advance]);

  const { draft, rewrite, generate, rerephrase, retryFailed } = useCreateRun();
  const session = useInteractiveSession(userId, length);

  const output = useRewriteOutput(rewrite);
  const busy = isCreateBusy(draft, rewrite);

  const noAwakeVoices = voicesQuery.isSuccess && awake.length === 0;

  const onGenerationComplete = useCallback(() => {
    if (completesCreateQuickstart(step)) finishQuickstart();
  }, [step, finishQuickstart]);

  const submitQuick = () => {
    const problem = createFormError({ loraId: selectedId, prompt, referenceFile });
    if (problem !== null || selectedId === null) {
      setFormError(problem);
      return;
    }
    setFormError(null);
    output.reset();
    generate({
      loraId: selectedId,
      request: { prompt: prompt.trim(), format, referenceFile },
      editPassEnabled: () => editPassRef.current,
      onComplete: onGenerationComplete,
    });
  };

  const submitRerephrase = () => {
    if (selectedId === null) {
      setFormError(CONVERT_MESSAGES.selectVoice);
      return;
    }
    setFormError(null);
    output.reset();
    rerephrase({ loraId: selectedId, draft: draft.draft, editPassEnabled: () => editPassRef.current });
  };

  const submitRetry = () => {
    if (selectedId === null) {
      setFormError(CONVERT_MESSAGES.selectVoice);
      return;
    }
    setFormError(null);
    output.reset();
    retryFailed(selectedId);
  };

  const startInteractive = () => {
    const problem = createFormError({ loraId: selectedId, prompt });
    if (problem !== null || selectedId === null) {
      setFormError(problem);
      return;
    }
    setFormError(null);
    void session.act(newInteractiveState(length, prompt.trim(), selectedId), 'ask_questions');
  };

  const chooseFile = (file: File | null) => {
    setReferenceFile(file);
    setFormError(file ? referenceFileError(file) : null);
  };

  const sessionRunning = mode === 'interactive' && session.state !== null;

  return (
    <Page title="Create" description="Draft new content from a prompt, written in your Voice.">
      {showsCreateTour(step) && !tour.dismissed && (
        <CreateTour onFinish={() => advance('rephrasing_tour_complete')} onClose={tour.dismiss} />
      )}
      {quickstartShown && !wrapUp && (
        <CreateQuickstart
          onUseSample={() => setPrompt(SAMPLE_PROMPT)}
          onFinish={finishQuickstart}
          onClose={quickstart.dismiss}
        />
      )}
      {wrapUp && <WrapUp onClose={() => setWrapUp(false)} />}

      <Card padding="lg">
        <Stack gap="sm">
          <SegmentedControl
            value={mode}
            onChange={(value) => {
              setMode(value as CreateMode);
              setFormError(null);
            }}
            data={MODES}
            style={{ alignSelf: 'flex-start' }}
            data-testid="create-mode"
          />
          <VoicePicker
            awake={awake}
            loading={voicesQuery.isPending}
            value={selectedId}
            onChange={(id) => {
              choose(id);
              setFormError(null);
            }}
            disabled={sessionRunning}
            testId="create-voice-select"
          />
          <AwakeVoicesNotice
            noAwakeVoices={noAwakeVoices}
            testId="create-no-voices"
            error={voicesQuery.isError ? voicesQuery.error : null}
            fallbackError={CREATE_ERRORS.fetchVoicesFailed}
            onRetry={() => void voicesQuery.refetch()}
          />
          <Textarea
            label="Prompt"
            description={`${prompt.length.toLocaleString('en-US')} / ${MAX_PROMPT_CHARS.toLocaleString('en-US')} characters`}
            placeholder="What should be written? Topic, audience, points to make, tone…"
            value={prompt}
            onChange={(event) => {
              setPrompt(event.currentTarget.value.slice(0, MAX_PROMPT_CHARS));
              setFormError(null);
            }}
            maxLength={MAX_PROMPT_CHARS}
            autosize
            minRows={3}
            maxRows={12}
            required
            disabled={sessionRunning}
            data-testid="create-prompt"
          />
          {mode === 'quick' && (
            <>
              <Group align="flex-end" gap="md" wrap="wrap">
                <Select
                  label="Format"
                  data={FORMAT_OPTIONS}
                  value={format}
                  onChange={(value) => setFormat((value as ContentFormat | null) ?? 'free')}
                  allowDeselect={false}
                  style={{ flex: '1 1 200px' }}
                  data-testid="create-format"
                />
                <FileInput
                  label="Reference file (optional)"
                  placeholder="Pick a file"
                  accept={VOICE_FILE_EXTENSIONS.join(',')}
                  value={referenceFile}
                  onChange={chooseFile}
                  clearable
                  leftSection={<IconFileText size={16} />}
                  style={{ flex: '1 1 200px', minWidth: 0 }}
                  data-testid="create-reference"
                />
              </Group>
              <Group align="center" justify="space-between" gap="md" wrap="wrap">
                <Checkbox
                  label="Edit pass"
                  description="Proofread the rewrite against the draft"
                  checked={editPass}
                  onChange={(event) => setEditPass(event.currentTarget.checked)}
                  data-testid="create-edit-pass"
                />
                <Button
                  onClick={submitQuick}
                  disabled={awake.length === 0 || busy}
                  leftSection={<IconSparkles size={18} />}
                  data-testid="create-generate"
                >
                  {generateLabel(draft, rewrite)}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </Card>

      <ErrorAlert message={formError} onClose={() => setFormError(null)} />

      {mode === 'quick' ? (
        <>
          {rewrite.phase === 'error' && <ErrorAlert message={rewrite.error} />}
          <RewriteFailures rewrite={rewrite} onRetry={submitRetry} />
          <QuickPanels
            draft={draft}
            rephrased={output.text}
            onRephrasedChange={output.edit}
            rephrasedReadOnly={busy}
            statuses={createStatusTexts(draft, rewrite)}
            view={output.view}
            onToggleView={output.toggleView}
            onRerephrase={submitRerephrase}
            rerephraseDisabled={!canRerephrase(draft, rewrite) || selectedId === null}
            copyDisabled={rewrite.phase === 'complete' && !hasUsableRewrite(rewrite)}
          />
        </>
      ) : (
        <InteractiveWriter session={session} length={length} onLengthChange={setLength} onStart={startInteractive} />
      )}
    </Page>
  );
}
