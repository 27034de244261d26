// Markdown to plain text: remark parses it (with GitHub's extensions), strip-markdown removes the
// syntax and what is not prose (code blocks, tables, HTML, images), and each remaining block
// becomes a paragraph of its words. Reading the tree rather than printing it back as Markdown
// keeps characters like * and _ from coming out escaped. A text the parser would take too long
// over is refused before it starts (markdown-work.ts).
import { toString as nodeText } from 'mdast-util-to-string';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import stripMarkdown from 'strip-markdown';
import { unified } from 'unified';
import { checkMarkdownWork } from './markdown-work.js';

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(stripMarkdown, { remove: ['image', 'imageReference'] });

export function markdownToPlainText(markdown: string): string {
  checkMarkdownWork(markdown);
  const tree = processor.runSync(processor.parse(markdown));
  return tree.children
    .map((block) => nodeText(block))
    .filter((t) => t.trim() !== '')
    .join('\n\n');
}
