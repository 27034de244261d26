// The left box of Convert: a rich-text editor with the toolbar H1, H2, H3, bold,
// italic, strikethrough, code, bullet list and numbered list, whose content is read as markdown.
import '@mantine/tiptap/styles.css';
import { RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import { type CSSProperties, type Ref, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { createEditorExtensions } from '../editor-extensions';

export interface MarkdownEditorHandle {
  /** The content as markdown (atx headings, dash bullets, fenced code). */
  getMarkdown(): string;
  setMarkdown(markdown: string): void;
  focus(): void;
}

export interface MarkdownEditorProps {
  ref?: Ref<MarkdownEditorHandle>;
  /** Called when the editor goes from having text to having none, or back. */
  onBlankChange?: (blank: boolean) => void;
  /** Called after every change of the content (read it through the handle). */
  onChange?: () => void;
  /** The markdown the editor opens with (what the page kept across a checkout or reload). */
  initialMarkdown?: string;
}

const LABELS = { orderedListControlLabel: 'Numbered list', codeControlLabel: 'Code' };

/**
 * Mantine's own focus ring, drawn around the whole editor while its text has the focus: Tiptap's
 * styles take the outline off the editable area, which left a keyboard user no sign of where they were.
 */
const FOCUS_RING: CSSProperties = {
  outlineStyle: 'solid',
  outlineWidth: 2,
  outlineColor: 'var(--mantine-primary-color-filled)',
  outlineOffset: 2,
};

export function MarkdownEditor({ ref, onBlankChange, onChange, initialMarkdown = '' }: MarkdownEditorProps) {
  const extensions = useMemo(() => createEditorExtensions(), []);
  const [textFocused, setTextFocused] = useState(false);
  const onBlankChangeRef = useRef(onBlankChange);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onBlankChangeRef.current = onBlankChange;
    onChangeRef.current = onChange;
  }, [onBlankChange, onChange]);

  const editor = useEditor({
    extensions,
    content: initialMarkdown,
    contentType: 'markdown',
    // The toolbar shows which marks and blocks are active at the cursor.
    shouldRerenderOnTransaction: true,
    editorProps: {
      attributes: {
        'data-testid': 'convert-editor',
        'aria-label': 'Text to convert',
        'aria-multiline': 'true',
        role: 'textbox',
        style: 'min-height: 18rem',
      },
    },
    onUpdate: ({ editor: current }) => {
      onBlankChangeRef.current?.(current.getText().trim() === '');
      onChangeRef.current?.();
    },
  });

  useImperativeHandle(
    ref,
    () => ({
      // The trailing empty paragraph the editor keeps after a list or heading is not content.
      getMarkdown: () => editor.getMarkdown().trimEnd(),
      setMarkdown: (markdown) => {
        editor.commands.setContent(markdown, { contentType: 'markdown', emitUpdate: true });
      },
      focus: () => {
        editor.commands.focus('end');
      },
    }),
    [editor],
  );

  return (
    <RichTextEditor editor={editor} labels={LABELS} style={textFocused ? FOCUS_RING : undefined}>
      <RichTextEditor.Toolbar>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.H1 />
          <RichTextEditor.H2 />
          <RichTextEditor.H3 />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <RichTextEditor.Strikethrough />
          <RichTextEditor.Code />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.BulletList />
          <RichTextEditor.OrderedList />
        </RichTextEditor.ControlsGroup>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content onFocus={() => setTextFocused(true)} onBlur={() => setTextFocused(false)} />
    </RichTextEditor>
  );
}
