// The Convert editor's schema and behaviour: StarterKit with
// undo depth 100 and a new undo group after 500 ms idle, headings 1-6, links limited to the
// allowed schemes (in the document, in rendered HTML and in the markdown it writes), a
// placeholder, markdown in and out (atx headings, dash bullets, fenced code blocks), and plain-text
// pastes with their hard-wrapped lines joined into paragraphs (wrapped-lines.ts).

import {
  CONVERT_MESSAGES,
  EDITOR_HEADING_LEVELS,
  EDITOR_NEW_GROUP_DELAY_MS,
  EDITOR_UNDO_DEPTH,
} from '@ownvoice/shared';
import { type AnyExtension, Extension, type JSONContent } from '@tiptap/core';
import { Link } from '@tiptap/extension-link';
import { Placeholder } from '@tiptap/extensions';
import { Markdown } from '@tiptap/markdown';
import { Plugin } from '@tiptap/pm/state';
import StarterKit from '@tiptap/starter-kit';
import { isAllowedLinkUri, linkScheme } from './link-schemes';
import { joinWrappedLines, plainParagraphs } from './wrapped-lines';

const defaultShouldAutoLink = Link.options.shouldAutoLink;

/** Link, refusing every href outside the allowed schemes wherever one could come in or go out. */
export const SafeLink = Link.extend({
  parseMarkdown: (token, helpers) => {
    const content = helpers.parseInline(token.tokens || []);
    if (!isAllowedLinkUri(token.href)) return content;
    return helpers.applyMark('link', content, { href: token.href, title: token.title || null });
  },
  renderMarkdown: (node, helpers) => {
    const text = helpers.renderChildren(node);
    const href: unknown = node.attrs?.href;
    if (typeof href !== 'string' || !isAllowedLinkUri(href)) return text;
    const title: unknown = node.attrs?.title;
    return typeof title === 'string' && title !== '' ? `[${text}](${href} "${title}")` : `[${text}](${href})`;
  },
}).configure({
  openOnClick: false,
  defaultProtocol: 'https',
  isAllowedUri: (url) => isAllowedLinkUri(url),
  // Bare domains ("example.com") still autolink, with the default protocol added.
  shouldAutoLink: (url) => (linkScheme(url) === null ? defaultShouldAutoLink(url) : isAllowedLinkUri(url)),
});

/** Markdown marks at the start of a line (headings, lists, quotes, fences) or inline emphasis. */
export const looksLikeMarkdown = (text: string): boolean =>
  /^(#{1,6} |[-*+] |\d+[.)] |> |```)/m.test(text) || /(\*\*|__|~~|`)[^\n]+\1/.test(text);

/** Plain text as the editor's paragraphs, a kept line break as a hard break inside one. */
export function plainTextContent(text: string): JSONContent[] {
  return plainParagraphs(text).map((lines) => ({
    type: 'paragraph',
    content: lines.flatMap((line, index): JSONContent[] =>
      index === 0 ? [{ type: 'text', text: line }] : [{ type: 'hardBreak' }, { type: 'text', text: line }],
    ),
  }));
}

/**
 * Plain text pasted from a chat assistant or an editor is usually markdown: read it as such, so
 * headings and lists arrive as headings and lists. Either way a paragraph's hard-wrapped lines
 * are joined first, so an e-mail keeps its paragraphs instead of one per line. Rich (HTML)
 * pastes keep their own formatting.
 */
const MarkdownPaste = Extension.create({
  name: 'markdownPaste',
  addProseMirrorPlugins() {
    const editor = this.editor;
    return [
      new Plugin({
        props: {
          handlePaste: (_view, event) => {
            const data = event.clipboardData;
            if (!data || data.types.includes('text/html')) return false;
            const text = data.getData('text/plain');
            if (!text) return false;
            const joined = joinWrappedLines(text);
            if (looksLikeMarkdown(joined)) return editor.commands.insertContent(joined, { contentType: 'markdown' });
            const content = plainTextContent(joined);
            return content.length > 0 && editor.commands.insertContent(content);
          },
        },
      }),
    ];
  },
});

export function createEditorExtensions(placeholder: string = CONVERT_MESSAGES.editorPlaceholder): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: { levels: [...EDITOR_HEADING_LEVELS] },
      undoRedo: { depth: EDITOR_UNDO_DEPTH, newGroupDelay: EDITOR_NEW_GROUP_DELAY_MS },
      link: false,
      // Not in the toolbar, and markdown has no underline.
      underline: false,
    }),
    SafeLink,
    Placeholder.configure({ placeholder }),
    Markdown.configure({ indentation: { style: 'space', size: 2 } }),
    MarkdownPaste,
  ];
}
