// The landing page's demo files in apps/web/public/demo/, served as static files: the Convert
// video, recorded from the real product on the house model by `npm run demo:record`
// (e2e/demo/record.sh), and the evidence of a real Voice on the real model, written by
// `npm run demo:real-voice` (e2e/demo/real-voice.sh).
import { voiceEvaluationSchema } from '@ownvoice/shared';
import { z } from 'zod';

export const DEMO_MEDIA = {
  video: '/demo/convert-demo.webm',
  poster: '/demo/convert-demo-poster.jpg',
  realVoice: '/demo/real-voice.json',
} as const;

/** A real Voice's evaluation, as its owner's page would show it, with what made it named. */
export const demoEvidenceSchema = z.object({
  /** The base model, and where it came from. */
  model: z.string(),
  /** Whose writing the Voice trained on. */
  writer: z.string(),
  /** The training settings, in words ("the standard preset (…)"). */
  settings: z.string(),
  trainedOnCharacters: z.number(),
  evaluation: voiceEvaluationSchema,
});
export type DemoEvidence = z.infer<typeof demoEvidenceSchema>;
