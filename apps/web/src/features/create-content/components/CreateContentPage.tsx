// /dashboard/create-content: pick a mode and an awake Voice (kept in ?loraId=, as on Convert),
// describe the piece, then either generate it straight away (Quick: the draft streams on the left,
// the Voice's rewrite on the right, with the optional edit pass) or write it step by step
// (Interactive). The state lives in the hooks; this lays out the screen.
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { useCurrentUser } from '../../../lib/session/session-context';
import { useVoiceChoice } from '../../../lib/voice-choice';
import { useCreateActions } from '../hooks/use-create-actions';
import { useCreateForm } from '../hooks/use-create-form';
import { useCreateOnboarding } from '../hooks/use-create-onboarding';
import { useCreateRun } from '../hooks/use-create-run';
import { useInteractiveSession } from '../hooks/use-interactive-session';
import { useKeepCreate, useKeptCreate } from '../hooks/use-keep-create';
import { generateLabel } from '../quick-view';
import { CreateForm } from './CreateForm';
import { CreateGuide } from './CreateGuides';
import { InteractiveWriter } from './interactive/InteractiveWriter';
import { QuickOutput } from './QuickOutput';

export function CreateContentPage() {
  const user = useCurrentUser();
  const userId = user.id || user._id;
  const voices = useVoiceChoice();
  const kept = useKeptCreate(userId);
  const form = useCreateForm(userId, voices.choose, kept);
  const onboarding = useCreateOnboarding(userId, user.onboarding.step, form.prompt, form.setPrompt);
  const run = useCreateRun(kept);
  useKeepCreate(userId, form, run);
  const session = useInteractiveSession(userId, form.length);
  const actions = useCreateActions({
    form,
    voiceId: voices.selectedId,
    run,
    session,
    onGenerationComplete: onboarding.onGenerationComplete,
  });

  return (
    <Page title="Create" description="Draft new content from a prompt, written in your Voice.">
      <CreateGuide onboarding={onboarding} />
      <CreateForm
        form={form}
        voices={voices}
        sessionRunning={form.mode === 'interactive' && session.state !== null}
        generateLabel={generateLabel(run.draft, run.rewrite)}
        generateDisabled={voices.awake.length === 0 || run.busy}
        onGenerate={actions.generate}
      />
      <ErrorAlert message={form.formError} onClose={form.clearError} />
      {form.mode === 'quick' ? (
        <QuickOutput
          run={run}
          noVoice={voices.selectedId === null}
          onRerephrase={actions.rerephrase}
          onRetry={actions.retryFailed}
        />
      ) : (
        <InteractiveWriter
          session={session}
          length={form.length}
          onLengthChange={form.setLength}
          onStart={actions.startInteractive}
        />
      )}
    </Page>
  );
}
