// What the interactive screen shows per step, and the local edits it
// makes to the session before sending it: answers, outline titles, revision requests, going back
// from complete to the last section. Pure.
import {
  INTERACTIVE_MESSAGES,
  type InteractiveAction,
  type InteractiveSection,
  type InteractiveState,
} from '@ownvoice/shared';

export type InteractiveScreen =
  /** Nothing started: the length choice and Start. */
  | { kind: 'start' }
  /** Questions to answer, before the outline (long) or before a section. */
  | {
      kind: 'questions';
      stage: 'skeleton' | 'section';
      queries: readonly string[];
      answers: readonly string[];
      /** INTERACTIVE_MESSAGES.noQuestions when there is nothing to answer, else null. */
      notice: string | null;
      submit: InteractiveAction;
      heading: string;
    }
  /** The outline to edit, revise or approve. */
  | { kind: 'outline'; titles: readonly string[] }
  /** A drafted section: base draft and the Voice's rewrite, to revise or approve. */
  | { kind: 'section'; heading: string; draft: string; rephrased: string; isLast: boolean }
  /** The whole piece. */
  | { kind: 'complete'; piece: string };

/** "Section 2 of 4: Title", or the title alone in short mode. */
export function sectionHeading(state: InteractiveState): string {
  const title = state.skeletonDraft[state.currentSectionIndex]?.title ?? '';
  if (state.mode === 'short') return title;
  const total = state.skeletonDraft.length;
  const label = `Section ${state.currentSectionIndex + 1} of ${total}`;
  return title ? `${label}: ${title}` : label;
}

export function interactiveScreen(state: InteractiveState | null): InteractiveScreen {
  if (state === null || state.step === 'init') return { kind: 'start' };
  switch (state.step) {
    case 'awaiting_skeleton_answers':
      return {
        kind: 'questions',
        stage: 'skeleton',
        queries: state.skeletonQueries,
        answers: state.skeletonAnswers,
        notice: state.skeletonQueries.length === 0 ? INTERACTIVE_MESSAGES.noQuestions : null,
        submit: 'submit_skeleton_answers',
        heading: 'A few questions before the outline',
      };
    case 'skeleton_drafted':
      return { kind: 'outline', titles: state.skeletonDraft.map((item) => item.title) };
    case 'awaiting_section_answers':
      return {
        kind: 'questions',
        stage: 'section',
        queries: state.currentQueries,
        answers: state.currentAnswers,
        notice: state.currentQueries.length === 0 ? INTERACTIVE_MESSAGES.noQuestions : null,
        submit: 'submit_section_answers',
        heading: sectionHeading(state),
      };
    case 'section_drafted':
      return {
        kind: 'section',
        heading: sectionHeading(state),
        draft: state.currentDraft,
        rephrased: state.currentRephrased,
        isLast: state.currentSectionIndex >= state.skeletonDraft.length - 1,
      };
    case 'complete':
      return { kind: 'complete', piece: pieceOf(state) };
  }
}

/**
 * The sections joined under '## title' headings (a section without a title has none). Short mode's
 * one section is titled with the prompt itself, so it goes without a heading.
 */
export function fullPiece(
  sections: readonly InteractiveSection[],
  version: 'rephrased' | 'draft',
  withHeadings = true,
): string {
  return sections
    .map((section) => {
      const body = section[version].trim();
      const title = section.title.trim();
      return withHeadings && title ? `## ${title}\n\n${body}` : body;
    })
    .join('\n\n');
}

/** The sections so far: the finished ones, plus the drafted one on screen. */
function sectionsOf(state: InteractiveState): InteractiveSection[] {
  const sections = [...state.content];
  if (state.step === 'section_drafted') {
    sections.push({
      title: state.skeletonDraft[state.currentSectionIndex]?.title ?? '',
      draft: state.currentDraft,
      rephrased: state.currentRephrased,
      parts: state.currentParts,
      failed: state.currentFailed,
    });
  }
  return sections;
}

/** The piece so far: the finished sections, plus the drafted one on screen. */
export function pieceOf(state: InteractiveState, version: 'rephrased' | 'draft' = 'rephrased'): string {
  return fullPiece(sectionsOf(state), version, state.mode === 'long');
}

/**
 * The parts of the piece so far that did not come out in the Voice (they hold the draft's words),
 * of all its parts, as the server counted them; `retry_failed_parts` retries them all.
 */
export function failedPartsOf(state: InteractiveState | null): { failed: number; total: number; none: boolean } {
  const sections = state === null ? [] : sectionsOf(state);
  const failed = sections.reduce((n, section) => n + section.failed.length, 0);
  const total = sections.reduce((n, section) => n + section.parts.length, 0);
  return { failed, total, none: failed > 0 && failed >= total };
}

/** Sets answer `index` of the questions now on screen. */
export function setAnswer(state: InteractiveState, index: number, value: string): InteractiveState {
  const field = state.step === 'awaiting_skeleton_answers' ? 'skeletonAnswers' : 'currentAnswers';
  const queries = field === 'skeletonAnswers' ? state.skeletonQueries : state.currentQueries;
  const answers = Array.from({ length: queries.length }, (_, i) => state[field][i] ?? '');
  if (index < 0 || index >= answers.length) return state;
  answers[index] = value;
  return { ...state, [field]: answers };
}

/** The answers to send: one per question, blank where none was typed. */
export function withAllAnswers(state: InteractiveState): InteractiveState {
  if (state.step === 'awaiting_skeleton_answers') {
    return { ...state, skeletonAnswers: state.skeletonQueries.map((_, i) => state.skeletonAnswers[i] ?? '') };
  }
  if (state.step === 'awaiting_section_answers') {
    return { ...state, currentAnswers: state.currentQueries.map((_, i) => state.currentAnswers[i] ?? '') };
  }
  return state;
}

/** Most sections an outline holds (the session schema's bound). */
export const MAX_OUTLINE_ITEMS = 12;

export function setOutlineTitle(state: InteractiveState, index: number, title: string): InteractiveState {
  if (index < 0 || index >= state.skeletonDraft.length) return state;
  const skeletonDraft = state.skeletonDraft.map((item, i) => (i === index ? { title } : item));
  return { ...state, skeletonDraft };
}

export function addOutlineItem(state: InteractiveState): InteractiveState {
  if (state.skeletonDraft.length >= MAX_OUTLINE_ITEMS) return state;
  return { ...state, skeletonDraft: [...state.skeletonDraft, { title: '' }] };
}

export function removeOutlineItem(state: InteractiveState, index: number): InteractiveState {
  return { ...state, skeletonDraft: state.skeletonDraft.filter((_, i) => i !== index) };
}

/** Approving needs at least one section, each with a title. */
export const outlineIsApprovable = (state: InteractiveState): boolean =>
  state.skeletonDraft.length > 0 && state.skeletonDraft.every((item) => item.title.trim() !== '');

/** From complete back to the last section as drafted (the server reopens it alike on the next action). */
export { reopenLastSection as backToEditing } from '@ownvoice/shared';

/**
 * What Copy takes: the full rephrased content so far (finished sections and the one on screen);
 * nothing while a part failed, whose draft's words would pass for the Voice's.
 */
export function copyText(state: InteractiveState | null): string {
  if (state === null || failedPartsOf(state).failed > 0) return '';
  return state.step === 'complete' || state.step === 'section_drafted' ? pieceOf(state) : '';
}
