// The two prompts a Voice lives by (STRAP, Krishna et al. 2020):
//  - building pairs: the base model paraphrases a passage of the person's writing into plain,
//    generic prose ("inverse paraphrase");
//  - rewriting: the Voice maps generic prose back to the person's style. Training and Convert
//    use exactly this format, so the adapter sees at inference what it learned on.

export const PARAPHRASE_SYSTEM =
  'You rewrite text in plain, neutral, generic English. Keep every fact, name, number and the order of ideas. Remove any personal style: no unusual words, no distinctive rhythm. Answer with the rewritten text only.';

export const paraphraseRequest = (passage: string): string =>
  `Rewrite this text in plain, generic English:\n\n${passage}`;

/** The rewrite prompt; the Voice continues it with the text in the person's style. */
export const rewritePrompt = (generic: string): string => `### Plain text:\n${generic.trim()}\n\n### In my voice:\n`;
