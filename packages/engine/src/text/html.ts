// HTML (web pages, EPUB chapters) to plain text with html-to-text: block elements become
// paragraphs, inline markup disappears, and what is not prose (scripts, navigation, images,
// tables, link targets) is left out. Markup nested too deep for it is refused first (nesting.ts).
import { convert, type HtmlToTextOptions } from 'html-to-text';
import { checkTreeDepth } from './nesting.js';

const OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'nav', format: 'skip' },
    { selector: 'table', format: 'skip' },
    { selector: 'blockquote', format: 'block' },
    // List items as paragraphs of their own, without bullets or numbers, as Markdown lists come out.
    { selector: 'ul', format: 'block' },
    { selector: 'ol', format: 'block' },
    { selector: 'li', format: 'block' },
    ...(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const).map((h) => ({
      selector: h,
      options: { uppercase: false, leadingLineBreaks: 2, trailingLineBreaks: 2 },
    })),
  ],
};

export function htmlToPlainText(html: string): string {
  checkTreeDepth(html, { xmlMode: false });
  return convert(html, OPTIONS);
}
