import { type JSONContent, resolveExtensions } from '@tiptap/core';
import { MarkdownManager } from '@tiptap/markdown';
import { describe, expect, it } from 'vitest';
import { createEditorExtensions, looksLikeMarkdown } from './editor-extensions';

// The editor's own markdown manager, built from the same extensions, without a DOM.
const markdown = () => new MarkdownManager({ extensions: resolveExtensions(createEditorExtensions()) });

const text = (value: string, marks?: JSONContent['marks']): JSONContent => ({
  type: 'text',
  text: value,
  ...(marks ? { marks } : {}),
});
const paragraph = (...content: JSONContent[]): JSONContent => ({ type: 'paragraph', content });
const item = (value: string): JSONContent => ({ type: 'listItem', content: [paragraph(text(value))] });

describe('editor markdown', () => {
  it('writes atx headings, dash bullets, numbered lists and fenced code', () => {
    const doc: JSONContent = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [text('Title')] },
        paragraph(text('Some '), text('bold', [{ type: 'bold' }]), text(' and '), text('gone', [{ type: 'strike' }])),
        { type: 'bulletList', content: [item('one'), item('two')] },
        { type: 'orderedList', attrs: { start: 1 }, content: [item('first'), item('second')] },
        { type: 'codeBlock', attrs: { language: null }, content: [text('const a = 1;')] },
      ],
    };
    expect(markdown().serialize(doc)).toBe(
      '## Title\n\nSome **bold** and ~~gone~~\n\n- one\n- two\n\n1. first\n2. second\n\n```\nconst a = 1;\n```',
    );
  });

  it('keeps heading levels up to 6', () => {
    const doc: JSONContent = {
      type: 'doc',
      content: [{ type: 'heading', attrs: { level: 6 }, content: [text('Six')] }],
    };
    expect(markdown().serialize(doc)).toBe('###### Six');
  });

  it('normalises setext headings, star bullets and indented code when reading markdown', () => {
    const manager = markdown();
    const out = manager.serialize(manager.parse('Title\n=====\n\n* a\n* b\n\ntext\n\n    code line\n'));
    expect(out).toBe('# Title\n\n- a\n- b\n\ntext\n\n```\ncode line\n```');
  });

  it('keeps links with allowed schemes and drops the others to plain text', () => {
    const manager = markdown();
    expect(manager.serialize(manager.parse('[site](https://example.com) and [mail](mailto:a@b.co)'))).toBe(
      '[site](https://example.com) and [mail](mailto:a@b.co)',
    );
    expect(manager.serialize(manager.parse('[bad](javascript:alert(1)) and [rel](/dashboard)'))).toBe('bad and rel');

    const doc: JSONContent = {
      type: 'doc',
      content: [paragraph(text('x', [{ type: 'link', attrs: { href: 'data:text/html,hi', title: null } }]))],
    };
    expect(manager.serialize(doc)).toBe('x');
  });
});

describe('looksLikeMarkdown', () => {
  it('recognises headings, lists, quotes, fences and inline emphasis', () => {
    expect(looksLikeMarkdown('# Title\n\nText')).toBe(true);
    expect(looksLikeMarkdown('Intro\n- one\n- two')).toBe(true);
    expect(looksLikeMarkdown('1. first')).toBe(true);
    expect(looksLikeMarkdown('This is **bold** text')).toBe(true);
    expect(looksLikeMarkdown('Just a sentence. And another one.')).toBe(false);
  });
});
