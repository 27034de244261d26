// Every prompt the models get, and the settings they get it with, in one place.
//
// The Voice lives by two prompts (STRAP, Krishna et al. 2020):
//  - building pairs: the base model paraphrases a passage of the person's writing into plain,
//    generic prose ("inverse paraphrase");
//  - rewriting: the Voice maps generic prose back to the person's style. Training and every
//    rewrite (rewrite.ts) use exactly this format, so the adapter sees at inference what it
//    learned on.
// The plain base model also edits (the edit pass), plans and drafts (Create's Quick mode), and
// asks, outlines and drafts sections (interactive writing). Each of those is a chat: the
// functions below return its messages; the model's answer formats are read back by the parse
// functions at the end.
import type { ContentFormat } from '@ownvoice/shared';
import type { ChatMessage, GenerateOptions } from '../runtime/text-generator.js';

// ---- The Voice: pairs and rewriting ----

export const PARAPHRASE_SYSTEM =
  'You rewrite text in plain, neutral, generic English. Keep every fact, name, number and the order of ideas. Remove any personal style: no unusual words, no distinctive rhythm. Answer with the rewritten text only.';

/**
 * Which paraphrase prompt a base model gets. The house model learnt to paraphrase from the
 * request-then-passage prompt below (house-model/build.ts), so it keeps it. A real instruct
 * model is asked with the passage first and the request after it: SmolLM2-135M-Instruct given
 * "Rewrite this text…:" before the passage answered with the request and the passage copied
 * (4-gram overlap with the passage 0.9 and more), and with the passage first it rewrote it
 * (overlap 0.0 to 0.4 on four passages of the house authors; decision 31).
 */
export type ParaphrasePrompt = 'house' | 'instruct';

export const paraphraseRequest = (passage: string, prompt: ParaphrasePrompt = 'instruct'): string =>
  prompt === 'house'
    ? `Rewrite this text in plain, generic English:\n\n${passage}`
    : `${passage}\n\nRewrite the text above in plain, everyday English. Keep every fact, name and number. Answer with the rewritten text only.`;

/** The paraphrase's chat for one passage of the person's writing. */
export const paraphraseChat = (passage: string, prompt: ParaphrasePrompt = 'instruct'): ChatMessage[] => [
  { role: 'system', content: PARAPHRASE_SYSTEM },
  { role: 'user', content: paraphraseRequest(passage, prompt) },
];

/**
 * The paraphrase's token budget, from the passage's length in tokens; greedy. Plain English needs
 * no more tokens than the original, so the cap sits just above it: every token past it is decoded
 * by the base model and then read again by every training step.
 */
export const paraphraseSettings = (passageTokens: number) => ({
  maxTokens: Math.ceil(passageTokens * 1.1) + 8,
  temperature: 0,
});

/** The rewrite prompt; the Voice continues it with the text in the person's style. */
export const rewritePrompt = (generic: string): string => `### Plain text:\n${generic.trim()}\n\n### In my voice:\n`;

// ---- The base model's chat settings ----

/** Planning, asking and drafting: deterministic, with a mild penalty against loops. */
export const BASE_CHAT_SETTINGS = { temperature: 0, repeatPenalty: 1.2 } as const satisfies GenerateOptions;
/** Tokens for a short answer: a plan, a few questions, an outline. */
export const SHORT_ANSWER_TOKENS = 120;
/** Tokens a draft of this many words may take. */
export const TOKENS_PER_WORD = 1.6;
export const draftTokens = (words: number): number => Math.ceil(words * TOKENS_PER_WORD);

// ---- The edit pass ----

export const EDIT_SYSTEM =
  'You are a careful editor. You get an ORIGINAL text and a REWRITE of it in another style. Correct the REWRITE only where it differs from the ORIGINAL in facts: names, numbers, dates, places and claims. Keep the REWRITE\u2019s wording and style everywhere else. Answer with the corrected rewrite only.';

/** The edit pass's chat for one chunk: the base model corrects factual drift of the rewrite. */
export const editChat = (original: string, rewrite: string): ChatMessage[] => [
  { role: 'system', content: EDIT_SYSTEM },
  { role: 'user', content: `ORIGINAL:\n${original}\n\nREWRITE:\n${rewrite}` },
];

/** The edit's token budget, from the rewrite's length in tokens; greedy. */
export const editSettings = (rewriteTokens: number) => ({
  maxTokens: Math.ceil(rewriteTokens * 1.5) + 32,
  temperature: 0,
});

// ---- Create, Quick mode: plan, then draft ----

/** Aims for each format: a size the model can hit and a shape it should follow. */
export const FORMAT_GUIDE: Record<ContentFormat, { words: number; shape: string }> = {
  blog_post: { words: 450, shape: 'a blog post with a title line, a short introduction and a few sections' },
  email: { words: 180, shape: 'an e-mail with a greeting, the body and a sign-off' },
  social_post: { words: 60, shape: 'a social media post, one or two short paragraphs' },
  newsletter: { words: 350, shape: 'a newsletter with a headline and a few short items' },
  article: { words: 600, shape: 'an article with a headline and paragraphs' },
  free: { words: 300, shape: 'the piece the request describes' },
};

/** How much of a reference file the model reads. */
export const MAX_REFERENCE_CHARS = 6000;

export const PLAN_SYSTEM =
  'You plan a piece of writing before it is written. In a few short lines, note the audience, the main points in order, and the tone. Do not write the piece itself.';

export const draftSystem = (format: ContentFormat): string => {
  const guide = FORMAT_GUIDE[format];
  return `You are a clear, capable writer. Write ${guide.shape}, about ${guide.words} words, following the plan and the request. Use Markdown for headings and lists where they help. Answer with the piece only.`;
};

/** The writer's request as the model reads it, with the start of the reference file if one came. */
export const createRequest = (prompt: string, reference: string | undefined): string => {
  const material = reference?.trim().slice(0, MAX_REFERENCE_CHARS);
  return material ? `${prompt}\n\nReference material:\n${material}` : prompt;
};

export const planChat = (request: string): ChatMessage[] => [
  { role: 'system', content: PLAN_SYSTEM },
  { role: 'user', content: request },
];

export const draftChat = (format: ContentFormat, request: string, plan: string): ChatMessage[] => [
  { role: 'system', content: draftSystem(format) },
  { role: 'user', content: `${request}\n\nPlan:\n${plan.trim()}` },
];

// ---- Interactive writing: questions, outline, sections ----

export const MAX_QUESTIONS = 3;
export const MAX_SECTIONS = 5;
/** Words per section draft, by session mode. */
export const SECTION_WORDS = { short: 250, long: 220 } as const;

/** Up to MAX_QUESTIONS questions whose answers would improve the piece described by `context`. */
export const questionsChat = (context: string): ChatMessage[] => [
  {
    role: 'system',
    content: `You help a writer. Ask at most ${MAX_QUESTIONS} short questions, one per line, each ending with a question mark, whose answers would make the writing better. If nothing is missing, answer "No questions".`,
  },
  { role: 'user', content: context },
];

/** What the model knows when it asks before the first question of a session. */
export const sessionContext = (prompt: string): string => `The writer asks for: ${prompt}`;

/** What the model knows when it asks before writing a section. */
export const sectionContext = (prompt: string, info: string, title: string): string =>
  `The writer is writing: ${prompt}\nWhat we know:\n${info}\nNext section: ${title}`;

export const outlineChat = (
  prompt: string,
  info: string,
  revision: { current: readonly string[]; change: string } | undefined,
): ChatMessage[] => {
  const ask = revision
    ? `Current outline:\n${revision.current.join('\n')}\n\nChange requested: ${revision.change || 'improve it'}`
    : 'Write the outline.';
  return [
    {
      role: 'system',
      content: `You outline pieces of writing. Answer with 2 to ${MAX_SECTIONS} section titles, one per line, nothing else.`,
    },
    { role: 'user', content: `Request: ${prompt}\n${info}\n\n${ask}` },
  ];
};

export const sectionChat = (section: {
  prompt: string;
  info: string;
  title: string;
  words: number;
  /** The sections written so far. */
  earlier: readonly { title: string; draft: string }[];
  revision: { current: string; change: string } | undefined;
}): ChatMessage[] => {
  const earlier = section.earlier.map((c) => `## ${c.title}\n${c.draft}`).join('\n\n');
  const ask = section.revision
    ? `Current draft:\n${section.revision.current}\n\nChange requested: ${section.revision.change || 'improve it'}\n\nWrite the revised section.`
    : `Write the section "${section.title}".`;
  return [
    {
      role: 'system',
      content: `You are a clear, capable writer. Write about ${section.words} words for one section of a larger piece, using what the writer told you. Answer with the section text only.`,
    },
    {
      role: 'user',
      content: `Request: ${section.prompt}\n${section.info}${earlier ? `\n\nSections so far:\n${earlier}` : ''}\n\n${ask}`,
    },
  ];
};

/** Lines of a model's answer without list markers, numbering or heading marks. */
const cleanLines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)]|#+)\s*/, '').trim())
    .filter(Boolean);

/** The questions in an answer to questionsChat ("No questions" gives none). */
export const parseQuestions = (text: string): string[] =>
  cleanLines(text)
    .filter((l) => l.endsWith('?') && l.length <= 300)
    .slice(0, MAX_QUESTIONS);

/** The section titles in an answer to outlineChat. */
export const parseOutline = (text: string): string[] =>
  cleanLines(text)
    .filter((l) => l.length <= 120)
    .slice(0, MAX_SECTIONS);
