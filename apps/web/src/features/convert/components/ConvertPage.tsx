// /dashboard/convert?loraId={id}: pick an awake Voice (the optional loraId preselects one), write
// or paste text, convert it chunk by chunk, optionally proofread every chunk (edit pass), then edit
// and copy. The state lives in the hooks; this lays out the screen.
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { RewriteFailures } from '../../../components/RewriteFailures';
import { useCurrentUser } from '../../../lib/session/session-context';
import { useVoiceChoice } from '../../../lib/voice-choice';
import { useConversion } from '../hooks/use-conversion';
import { useConvertForm } from '../hooks/use-convert-form';
import { useConvertOnboarding } from '../hooks/use-convert-onboarding';
import { useKeepConvert, useKeptConvert } from '../hooks/use-keep-convert';
import { submitLabel } from '../submit-label';
import { ChunkList } from './ChunkList';
import { ConvertControls } from './ConvertControls';
import { ConvertGuide } from './ConvertGuides';
import { ConvertPanels } from './ConvertPanels';

export function ConvertPage() {
  const user = useCurrentUser();
  const userId = user.id || user._id;
  const step = user.onboarding.step;
  const { awake, query: voicesQuery, selectedId, choose } = useVoiceChoice();
  const kept = useKeptConvert(userId);
  const conversion = useConversion(kept?.rewrite ?? null);
  const onboarding = useConvertOnboarding(userId, step, awake.length > 0);
  const form = useConvertForm({
    selectedId,
    choose,
    start: conversion.start,
    retry: conversion.retryFailed,
    onComplete: onboarding.onConversionComplete,
    kept,
  });
  const onEditorChange = useKeepConvert(userId, form, conversion);
  const { state } = conversion;

  return (
    <Page title="Convert" description="Rewrite any text in the style of one of your Voices.">
      <ConvertGuide
        step={step}
        onboarding={onboarding}
        voicesLoaded={voicesQuery.isSuccess}
        hasAwakeVoice={awake.length > 0}
        textIsBlank={form.textIsBlank}
        onUseSample={form.fillSample}
      />
      <ConvertControls
        awake={awake}
        voicesQuery={voicesQuery}
        selectedId={selectedId}
        onVoiceChange={form.chooseVoice}
        editPass={form.editPass}
        onEditPassChange={form.setEditPass}
        submitLabel={submitLabel(state)}
        onSubmit={form.submit}
      />
      <ErrorAlert message={form.formError} onClose={form.clearError} />
      {state.phase === 'error' && <ErrorAlert message={state.error} />}
      <RewriteFailures
        rewrite={state}
        onRetry={form.retryFailed}
        subject="text"
        allFailedNote="No part came out in your Voice. Retry those parts, or convert again."
      />
      <ConvertPanels
        editorRef={form.editorRef}
        initialText={form.initialText}
        onBlankChange={form.setTextIsBlank}
        onEditorChange={onEditorChange}
        conversion={conversion}
      />
      <ChunkList chunks={state.chunks} />
    </Page>
  );
}
