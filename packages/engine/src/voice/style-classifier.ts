// Whose writing a rewrite reads as: an authorship classifier (eval/authorship-classifier.ts) of
// some writers' passages against neutral prose, modern plain writing by none of them
// (corpus/neutral-reference.txt, never among the paragraphs the rewrites come from). A Voice's
// evaluation trains one on its owner's held-out passages ("you" against neutral prose); the
// harness one on every writer's reference text. Its cross-validated accuracy comes with it: how
// far its verdicts on rewrites can be trusted.
import { neutralReferenceParagraphs } from '../corpus/neutral.js';
import { AuthorshipClassifier } from '../eval/authorship-classifier.js';
import { splitPassages, spreadEvenly } from '../text/passages.js';

/** The class of writing by none of the writers. */
export const NEUTRAL_CLASS = 'neutral';

/** Passages per writer at most, spread over their text: about as many as the neutral class has. */
const MAX_PASSAGES_PER_WRITER = 80;

/** Passages of about a rewrite's size (150–450 characters): a neutral paragraph or a little more. */
const classifierPassages = (text: string): string[] => splitPassages(text, { maxChars: 450, minChars: 150 });

/**
 * A classifier of each writer's texts (cut into passages) against neutral prose. The neutral class
 * has no more passages than the largest writer's: a person's few held-out passages against 90 of
 * neutral prose gave a fit that leant to neutral (6 of 14 of their own unseen passages read as
 * theirs, where as many of each read 13 of 14).
 */
export function writerClassifier(writers: Readonly<Record<string, readonly string[]>>): AuthorshipClassifier {
  const passages: Record<string, string[]> = {};
  for (const [writer, texts] of Object.entries(writers)) {
    passages[writer] = spreadEvenly(texts.flatMap(classifierPassages), MAX_PASSAGES_PER_WRITER);
  }
  const largest = Math.max(0, ...Object.values(passages).map((p) => p.length));
  passages[NEUTRAL_CLASS] = spreadEvenly(neutralReferenceParagraphs(), largest);
  return AuthorshipClassifier.train(passages);
}
