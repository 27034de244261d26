// Interactive writing (the interactive writing screen and POST /content/interactive/next): the
// server keeps each session (its step, what the writer has told it, what was paid); the client
// keeps a copy to show and to resume after a reload, and sends it with each action. Of what it
// sends, the server takes only the session's id (requestId), the step it acted on (stepId) and
// the writer's own input (`writerInput`).
import { z } from 'zod';
import { ID_PATTERN } from './constants.js';
import { MAX_PROMPT_CHARS } from './create.js';

export const INTERACTIVE_MODES = ['short', 'long'] as const;
export type InteractiveMode = (typeof INTERACTIVE_MODES)[number];

export const INTERACTIVE_STEPS = [
  'init',
  'awaiting_skeleton_answers',
  'skeleton_drafted',
  'awaiting_section_answers',
  'section_drafted',
  'complete',
] as const;
export type InteractiveStep = (typeof INTERACTIVE_STEPS)[number];

export const INTERACTIVE_ACTIONS = [
  'ask_questions',
  'submit_skeleton_answers',
  'revise_skeleton',
  'approve_skeleton',
  'submit_section_answers',
  'revise_section',
  'approve_section',
  'retry_failed_parts',
] as const;
export type InteractiveAction = (typeof INTERACTIVE_ACTIONS)[number];

/** Which actions each step allows: the session's state machine. */
export const ALLOWED_ACTIONS: Record<InteractiveStep, readonly InteractiveAction[]> = {
  init: ['ask_questions'],
  awaiting_skeleton_answers: ['submit_skeleton_answers'],
  skeleton_drafted: ['revise_skeleton', 'approve_skeleton'],
  awaiting_section_answers: ['submit_section_answers'],
  section_drafted: ['revise_section', 'approve_section', 'retry_failed_parts'],
  complete: ['retry_failed_parts'],
};

/** Most characters of what the writer has told a session (questions and answers): it all goes into each prompt. */
export const MAX_PROVIDED_INFO_CHARS = 20_000;
/** Outline revisions one session may ask for (each is model work). */
export const MAX_OUTLINE_REVISIONS = 10;

export const INTERACTIVE_MESSAGES = {
  /** Shown when the model has no questions. */
  noQuestions: 'Your instructions are thorough. You may proceed to draft.',
  startNeeds: 'Interactive writing needs a prompt and a 24-character Voice id',
  actionNotAllowed: (action: string, step: string) => `The action ${action} is not possible at step ${step}.`,
  unknownSession: 'This writing session is no longer available. Start a new one.',
  staleStep: 'This writing session has moved on (in another tab or window). Reload the page to continue from there.',
  tooMuchInfo: (chars: number) =>
    `Your answers come to ${chars.toLocaleString('en-US')} characters in all; a writing session keeps at most ${MAX_PROVIDED_INFO_CHARS.toLocaleString('en-US')}. Shorten your answers and send them again.`,
  nothingToRetry: 'Every part of this writing came out in your Voice: there is nothing to retry.',
  tooManyOutlineRevisions: `An outline can be revised ${MAX_OUTLINE_REVISIONS} times. Edit it by hand and approve it, or start a new session.`,
} as const;

/** Most questions, sections and characters a session holds: bounds on what the client may send. */
const MAX_ITEMS = 12;
const MAX_TEXT = 20_000;
const text = z.string().max(MAX_TEXT);
const list = z.array(text).max(MAX_ITEMS);

/** Most passages one section's rewrite is kept in. */
const MAX_PARTS = 200;
/**
 * A section's rewrite passage by passage, each with the whitespace before it (the last may be the
 * draft's tail): they join into `rephrased`. A passage the Voice could not write holds the draft's
 * own words and its index (0-based) is in `failed`, to retry; no error marker is ever kept.
 */
const partsSchema = z.array(text).max(MAX_PARTS).default([]);
const failedSchema = z.array(z.number().int().min(0).max(MAX_PARTS)).max(MAX_PARTS).default([]);

export const sectionSchema = z.object({
  title: text,
  draft: text,
  rephrased: text,
  parts: partsSchema,
  failed: failedSchema,
});
export type InteractiveSection = z.infer<typeof sectionSchema>;

export const interactiveStateSchema = z.object({
  version: z.literal(1),
  mode: z.enum(INTERACTIVE_MODES),
  step: z.enum(INTERACTIVE_STEPS),
  request: z.object({ prompt: z.string().trim().min(1, INTERACTIVE_MESSAGES.startNeeds).max(MAX_PROMPT_CHARS) }),
  loraId: z.string().regex(ID_PATTERN, INTERACTIVE_MESSAGES.startNeeds),
  requestId: z.string().max(64).nullable().default(null),
  stepId: z.string().max(64).nullable().default(null),
  history: z
    .array(z.object({ step: z.enum(INTERACTIVE_STEPS), action: z.enum(INTERACTIVE_ACTIONS) }))
    .max(200)
    .default([]),
  /** Everything the writer has told us so far, as question and answer lines. */
  allProvidedInfo: text.default(''),
  skeletonQueries: list.default([]),
  skeletonAnswers: list.default([]),
  skeletonDraft: z
    .array(z.object({ title: text }))
    .max(MAX_ITEMS)
    .default([]),
  skeletonInputAreas: list.default([]),
  skeletonRevision: text.default(''),
  currentQueries: list.default([]),
  currentAnswers: list.default([]),
  currentDraft: text.default(''),
  currentRephrased: text.default(''),
  currentParts: partsSchema,
  currentFailed: failedSchema,
  currentInputAreas: list.default([]),
  sectionRevision: text.default(''),
  currentSectionIndex: z.number().int().min(0).max(MAX_ITEMS).default(0),
  content: z.array(sectionSchema).max(MAX_ITEMS).default([]),
});
export type InteractiveState = z.infer<typeof interactiveStateSchema>;

export const interactiveNextRequestSchema = z.object({
  state: interactiveStateSchema,
  action: z.enum(INTERACTIVE_ACTIONS),
});
export const interactiveNextResponseSchema = z.object({ state: interactiveStateSchema });

/** A fresh session for the browser to start from. */
export const newInteractiveState = (mode: InteractiveMode, prompt: string, loraId: string): InteractiveState => ({
  version: 1,
  mode,
  step: 'init',
  request: { prompt },
  loraId,
  requestId: null,
  stepId: null,
  history: [],
  allProvidedInfo: '',
  skeletonQueries: [],
  skeletonAnswers: [],
  skeletonDraft: [],
  skeletonInputAreas: [],
  skeletonRevision: '',
  currentQueries: [],
  currentAnswers: [],
  currentDraft: '',
  currentRephrased: '',
  currentParts: [],
  currentFailed: [],
  currentInputAreas: [],
  sectionRevision: '',
  currentSectionIndex: 0,
  content: [],
});

/**
 * What the writer supplies at each action; everything else in a session comes from the server.
 * The outline is the writer's to edit only while it is drafted.
 */
export const writerInput = (
  state: InteractiveState,
): Pick<
  InteractiveState,
  | 'skeletonAnswers'
  | 'currentAnswers'
  | 'skeletonRevision'
  | 'sectionRevision'
  | 'skeletonInputAreas'
  | 'currentInputAreas'
  | 'skeletonDraft'
> => ({
  skeletonAnswers: state.skeletonAnswers,
  currentAnswers: state.currentAnswers,
  skeletonRevision: state.skeletonRevision,
  sectionRevision: state.sectionRevision,
  skeletonInputAreas: state.skeletonInputAreas,
  currentInputAreas: state.currentInputAreas,
  skeletonDraft: state.skeletonDraft,
});

/**
 * From complete back to the last section as drafted: the last section leaves the finished
 * content and becomes the current draft again, so approving it completes the piece anew. The
 * browser does it to show the section; the server does the same when the next action comes.
 */
export function reopenLastSection(state: InteractiveState): InteractiveState {
  const last = state.content[state.content.length - 1];
  if (state.step !== 'complete' || !last) return state;
  return {
    ...state,
    step: 'section_drafted',
    content: state.content.slice(0, -1),
    currentSectionIndex: state.content.length - 1,
    currentDraft: last.draft,
    currentRephrased: last.rephrased,
    currentParts: last.parts,
    currentFailed: last.failed,
    sectionRevision: '',
  };
}
