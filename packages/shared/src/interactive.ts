// Interactive writing (voices-convert-create.md §2 "Interactive writing screen", §3 "Interactive
// session state", §4 "Interactive flow"): the client holds the session state; each action goes to
// the server with it and comes back as the next state. The server checks every state it is sent.
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
] as const;
export type InteractiveAction = (typeof INTERACTIVE_ACTIONS)[number];

/** Which actions each step allows (§4 Interactive flow). */
export const ALLOWED_ACTIONS: Record<InteractiveStep, readonly InteractiveAction[]> = {
  init: ['ask_questions'],
  awaiting_skeleton_answers: ['submit_skeleton_answers'],
  skeleton_drafted: ['revise_skeleton', 'approve_skeleton'],
  awaiting_section_answers: ['submit_section_answers'],
  section_drafted: ['revise_section', 'approve_section'],
  complete: [],
};

export const INTERACTIVE_MESSAGES = {
  /** Shown when the model has no questions (§4). */
  noQuestions: 'Your instructions are thorough. You may proceed to draft.',
  startNeeds: 'Interactive writing needs a prompt and a 24-character Voice id',
  actionNotAllowed: (action: string, step: string) => `The action ${action} is not possible at step ${step}.`,
} as const;

/** Most questions, sections and characters a session holds: bounds on what the client may send. */
const MAX_ITEMS = 12;
const MAX_TEXT = 20_000;
const text = z.string().max(MAX_TEXT);
const list = z.array(text).max(MAX_ITEMS);

export const sectionSchema = z.object({ title: text, draft: text, rephrased: text });
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
  currentInputAreas: [],
  sectionRevision: '',
  currentSectionIndex: 0,
  content: [],
});
