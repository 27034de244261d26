// @vitest-environment happy-dom
// Pasting plain text into the Convert editor, through the editor's own paste handling.
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditorExtensions } from './editor-extensions';

let editor: Editor | null = null;
afterEach(() => {
  editor?.destroy();
  editor = null;
});

/** A paste of `text` as plain text only, the way a text file or a plain e-mail arrives. */
function paste(text: string) {
  editor = new Editor({ element: document.createElement('div'), extensions: createEditorExtensions() });
  const clipboardData = { types: ['text/plain'], getData: (type: string) => (type === 'text/plain' ? text : '') };
  editor.view.pasteText(text, { clipboardData } as unknown as ClipboardEvent);
  // The empty paragraph the editor keeps after a list is not pasted content.
  return (editor.getJSON().content ?? []).filter((block) => block.type !== 'paragraph' || block.content);
}

const texts = (node: { content?: { type: string; text?: string }[] }) =>
  (node.content ?? []).map((child) => (child.type === 'hardBreak' ? '\n' : (child.text ?? ''))).join('');

describe('pasting plain text into Convert', () => {
  it('makes one paragraph of each hard-wrapped paragraph, not one per line', () => {
    const blocks = paste(
      'The spring fair moves to the school field this year, where there is more\nroom for stalls.\n\nVolunteers arrive by eight to set up the\ntables.\n',
    );
    expect(blocks.map((block) => block.type)).toEqual(['paragraph', 'paragraph']);
    expect(blocks.map(texts)).toEqual([
      'The spring fair moves to the school field this year, where there is more room for stalls.',
      'Volunteers arrive by eight to set up the tables.',
    ]);
  });

  it('keeps a break asked for with two spaces, as a line break inside the paragraph', () => {
    const blocks = paste('12 High Street  \nLeeds\nand more');
    expect(blocks.map(texts)).toEqual(['12 High Street\nLeeds and more']);
  });

  it('reads wrapped markdown as markdown, lists kept', () => {
    const blocks = paste('Intro that is\nwrapped here.\n\n- one\n- two');
    expect(blocks.map((block) => block.type)).toEqual(['paragraph', 'bulletList']);
    expect(texts(blocks[0] ?? {})).toBe('Intro that is wrapped here.');
  });
});
