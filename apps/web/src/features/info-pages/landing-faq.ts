// The landing page's questions and answers. Figures come from the shared rules the server
// enforces, so the page cannot promise what the service does not do.
import {
  ANNUAL_DISCOUNT_PERCENT,
  MIN_TRAINING_CHARS,
  RECOMMENDED_TRAINING_CHARS,
  VOICE_FILE_EXTENSIONS,
} from '@ownvoice/shared';
import { formatCount } from '../../lib/format';
import { PATHS } from '../../lib/paths';
import { TRAINING_TIME_STATEMENT } from '../../lib/training-time';

export interface FaqItem {
  id: string;
  question: string;
  answer: string[];
  link?: { to: string; label: string };
}

/** Where more writing stops helping much: the product's own guidance, not an enforced limit. */
const USEFUL_TRAINING_CHARS = 200_000;
/** The recommended amount in words, as the product rounds it. */
const RECOMMENDED_WORDS = 6_000;

export const LANDING_FAQ: readonly FaqItem[] = [
  {
    id: 'voice',
    question: 'What is a Voice?',
    answer: [
      'A Voice is a small model of how you write, trained on your own writing: the words you reach for, the length of your sentences, the way you open and close a thought.',
      'You use it to Convert (paste generic text and get it back in your style) or to Create (describe what you need, and OwnVoice drafts it and rewrites the draft in your Voice).',
    ],
  },
  {
    id: 'writing',
    question: 'How much of my writing does it need?',
    answer: [
      `At least ${formatCount(MIN_TRAINING_CHARS)} characters. About ${formatCount(RECOMMENDED_TRAINING_CHARS)} (around ${formatCount(RECOMMENDED_WORDS)} words, or a handful of blog posts) works best, and more keeps helping up to about ${formatCount(USEFUL_TRAINING_CHARS)}.`,
      `Paste it in or upload files: ${VOICE_FILE_EXTENSIONS.join(', ')}. ${TRAINING_TIME_STATEMENT}`,
    ],
  },
  {
    id: 'privacy',
    question: 'Who can see what I upload?',
    answer: [
      'Your writing and your Voices are private by default: only your account can see them or use them.',
      'A Voice becomes public only when you make it public. Other people can then fork their own copy of it, and that copy carries none of your writing, not even the evaluation samples drawn from it.',
    ],
  },
  {
    id: 'offline',
    question: 'Is there an offline version?',
    answer: ['Yes: a free, open-source desktop app that runs on your own computer’s CPU. Nothing leaves your machine.'],
    link: { to: PATHS.download, label: 'Download the offline app' },
  },
  {
    id: 'plans',
    question: 'How do plans and cancelling work?',
    answer: [
      `Plans are monthly, or annual for ${ANNUAL_DISCOUNT_PERCENT}% less. Top-up packs cover a busy month without changing plan.`,
      'Cancel any time from your account page. Your plan keeps running to the end of the period you paid for, and you can reactivate it until then.',
    ],
  },
  {
    id: 'detectors',
    question: 'Will it get past AI detectors?',
    answer: [
      'We don’t run AI detectors and make no promises about them. What OwnVoice does measure, on every Voice, is how closely it matches your writing: see “Measured on real writing” above.',
    ],
  },
];
