// The depth bound counts elements as the parser behind each format would nest them.
import { describe, expect, it } from 'vitest';
import { ExtractionLimitError, MAX_MARKUP_DEPTH } from './limits.js';
import { checkTreeDepth, checkXmlDepth } from './nesting.js';

const html = (markup: string) => () => checkTreeDepth(markup, { xmlMode: false });
const xmlTree = (markup: string) => () => checkTreeDepth(markup, { xmlMode: true });
const xml = (markup: string) => () => checkXmlDepth(markup);

describe('checkTreeDepth', () => {
  it('allows the bound and refuses one element past it, closed or not', () => {
    expect(html('<div>'.repeat(MAX_MARKUP_DEPTH))).not.toThrow();
    expect(html('<div>'.repeat(MAX_MARKUP_DEPTH + 1))).toThrow(ExtractionLimitError);
    const closed = (depth: number) => `${'<span>'.repeat(depth)}x${'</span>'.repeat(depth)}`;
    expect(html(closed(MAX_MARKUP_DEPTH))).not.toThrow();
    expect(html(closed(MAX_MARKUP_DEPTH + 1))).toThrow(/nest more than 512 deep/);
  });

  it('does not nest void elements, elements a later tag ends, or tags in comments and scripts', () => {
    expect(html('<p>a<br><img src=x><hr>'.repeat(10_000))).not.toThrow();
    expect(html(`<ul>${'<li>item'.repeat(10_000)}`)).not.toThrow();
    expect(html(`<!-- ${'<div>'.repeat(10_000)} -->`)).not.toThrow();
    expect(html(`<script>${'<div>'.repeat(10_000)}</script>`)).not.toThrow();
    // An end tag closes what was left open inside it, as htmlparser2 builds the tree.
    expect(html('<div><b><i>text</div>'.repeat(10_000))).not.toThrow();
  });

  it('counts elements a stray end tag leaves open, as htmlparser2 does', () => {
    expect(html('<div></span>'.repeat(MAX_MARKUP_DEPTH + 1))).toThrow(ExtractionLimitError);
    expect(xmlTree('<a></b>'.repeat(MAX_MARKUP_DEPTH + 1))).toThrow(ExtractionLimitError);
  });

  it('does not nest self-closing elements in XML', () => {
    expect(xmlTree(`<package>${'<item/>'.repeat(20_000)}</package>`)).not.toThrow();
  });
});

describe('checkXmlDepth', () => {
  it('allows the bound and refuses one element past it', () => {
    expect(xml(`${'<w:sdt>'.repeat(MAX_MARKUP_DEPTH)}${'</w:sdt>'.repeat(MAX_MARKUP_DEPTH)}`)).not.toThrow();
    expect(xml('<w:sdt>'.repeat(MAX_MARKUP_DEPTH + 1))).toThrow(ExtractionLimitError);
  });

  it('closes one element at each end tag, whatever its name, as xmldom does', () => {
    // htmlparser2 would leave every <a> open; xmldom closes one per end tag.
    expect(xml('<a></b>'.repeat(10_000))).not.toThrow();
    // And an end tag closes only one element, where htmlparser2 closes those left open inside it.
    expect(xml('<a><b><b></a>'.repeat(300))).toThrow(ExtractionLimitError);
    expect(xmlTree('<a><b><b></a>'.repeat(300))).not.toThrow();
  });

  it('does not count self-closing elements, declarations, comments or CDATA', () => {
    const inert = `<?xml version="1.0"?><!-- ${'<a>'.repeat(5_000)} --><![CDATA[${'<a>'.repeat(5_000)}]]>`;
    expect(xml(`${inert}<w:body>${'<w:br/>'.repeat(20_000)}</w:body>`)).not.toThrow();
  });
});
