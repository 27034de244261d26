// How deep a document's elements nest, counted in one pass before any tree is built. The readers
// behind it copy or recurse per level: htmlparser2 keeps its open elements in an array it shifts
// at every tag, html-to-text and mammoth walk their trees recursively, xmldom looks namespaces up
// through a chain one link per level. A 200,000-deep page ran 12 s before the stack overflowed.
// So a document nested past MAX_MARKUP_DEPTH is refused here, in linear time, with a message that
// says so.
import { Parser, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { ExtractionLimitError, MAX_MARKUP_DEPTH } from './limits.js';

const tooDeep = () =>
  new ExtractionLimitError(
    `its elements nest more than ${MAX_MARKUP_DEPTH} deep, far deeper than documents are written; ` +
      'save it as plain text (.txt) and upload that',
  );

/**
 * Refuses markup that htmlparser2 would build a tree deeper than MAX_MARKUP_DEPTH from: pages and
 * EPUB chapters (html-to-text, `xmlMode` false) and the EPUB's own XML files (`xmlMode` true).
 * htmlparser2 itself counts, so its rules apply: void elements, ends implied by the next tag, an
 * end tag closing the elements left open inside it, a stray end tag ignored.
 */
export function checkTreeDepth(markup: string, { xmlMode }: { xmlMode: boolean }): void {
  let depth = 0;
  // Stops at the first element past the bound, so the parser's own list of open elements never
  // grows past it either.
  const parser = new Parser(
    {
      onopentagname: () => {
        depth += 1;
        if (depth > MAX_MARKUP_DEPTH) throw tooDeep();
      },
      onclosetag: () => {
        depth -= 1;
      },
    },
    { xmlMode },
  );
  parser.end(markup);
}

const ignore = () => {};
const IGNORED: TokenizerCallbacks = {
  onattribdata: ignore,
  onattribentity: ignore,
  onattribend: ignore,
  onattribname: ignore,
  oncdata: ignore,
  onclosetag: ignore,
  oncomment: ignore,
  ondeclaration: ignore,
  onend: ignore,
  onopentagend: ignore,
  onopentagname: ignore,
  onprocessinginstruction: ignore,
  onselfclosingtag: ignore,
  ontext: ignore,
  ontextentity: ignore,
};

/**
 * Refuses XML that @xmldom/xmldom (mammoth's reader, for Word documents) would nest deeper than
 * MAX_MARKUP_DEPTH. xmldom closes one element at each end tag whatever its name, so the tags are
 * counted as written rather than as htmlparser2 would pair them.
 */
export function checkXmlDepth(xml: string): void {
  let depth = 0;
  const tokenizer = new Tokenizer(
    { xmlMode: true, decodeEntities: false },
    {
      ...IGNORED,
      onopentagend: () => {
        depth += 1;
        if (depth > MAX_MARKUP_DEPTH) throw tooDeep();
      },
      onclosetag: () => {
        depth = Math.max(0, depth - 1);
      },
    },
  );
  tokenizer.write(xml);
  tokenizer.end();
}
