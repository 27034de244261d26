// Create's texts that only the page shows; the rules and
// messages shared with the server are in @ownvoice/shared (CREATE_MESSAGES, INTERACTIVE_MESSAGES).
import { CONVERT_MESSAGES } from '@ownvoice/shared';

export const CREATE_ERRORS = {
  fetchVoicesFailed: 'Failed to fetch LoRAs',
  generateFailed: 'Failed to generate content',
  convertFailed: CONVERT_MESSAGES.convertFailed,
  unknown: 'Unknown error',
  httpError: (status: number) => `HTTP error! status: ${status}`,
  /** Interactive writing: the server's message, else this. */
  interactiveFailed: 'Failed',
} as const;

/** Status texts beside the panels. */
export const CREATE_STATUS = {
  thinking: '(thinking...)',
  drafting: '(drafting...)',
} as const;

/** What a finished Quick run was charged, as the server's last event says (decision 37). */
export const CREATE_CHARGE = {
  charged: 'One short content was used for this draft.',
  notCharged: 'Nothing was charged: no part of this draft came out in your Voice, so its short content was given back.',
} as const;

export const GENERATE_LABELS = {
  idle: 'Generate Content',
  generating: 'Generating...',
  rephrasing: 'Rephrasing...',
  editing: 'Editing...',
} as const;

/** The prompt the Create quickstart fills in. */
export const SAMPLE_PROMPT =
  'Write a short blog post for small business owners on why a weekly newsletter keeps customers coming back, with three practical tips to start one.';
