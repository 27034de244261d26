// Convert's two boxes side by side: the text to convert (the rich-text editor) and the converted
// text as it streams in.
import { SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { lazy, type Ref, Suspense } from 'react';
import { ProofreadRestButton } from '../../../components/ProofreadRestButton';
import { RewriteOutput } from '../../../components/RewriteOutput';
import { statusTexts } from '../../../lib/rewrite/conversion';
import type { useConversion } from '../hooks/use-conversion';
import type { MarkdownEditorHandle } from './MarkdownEditor';

// The editor (Tiptap and its markdown parser) is the heaviest part of the app: loaded with this page only.
const MarkdownEditor = lazy(() => import('./MarkdownEditor').then((module) => ({ default: module.MarkdownEditor })));

export interface ConvertPanelsProps {
  editorRef: Ref<MarkdownEditorHandle>;
  /** What the editor opens with (kept across a checkout or reload). */
  initialText: string;
  onBlankChange: (blank: boolean) => void;
  onEditorChange: () => void;
  conversion: ReturnType<typeof useConversion>;
}

export function ConvertPanels({
  editorRef,
  initialText,
  onBlankChange,
  onEditorChange,
  conversion,
}: ConvertPanelsProps) {
  const { state, output, busy } = conversion;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Stack gap="xs">
        <Text fw={600}>Your text</Text>
        <Suspense fallback={<Skeleton height={340} radius="md" aria-label="Loading the editor" />}>
          <MarkdownEditor
            ref={editorRef}
            initialMarkdown={initialText}
            onBlankChange={onBlankChange}
            onChange={onEditorChange}
          />
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
        actions={<ProofreadRestButton rewrite={state} busy={busy} onProofread={conversion.proofreadRest} />}
      />
    </SimpleGrid>
  );
}
