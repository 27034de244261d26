// The landing page's demo files, recorded from the real product by `npm run demo:record`
// (e2e/demo/record.sh) into apps/web/public/demo/ and served as static files.
import { voiceEvaluationSchema } from '@ownvoice/shared';
import { z } from 'zod';

export const DEMO_MEDIA = {
  video: '/demo/convert-demo.webm',
  poster: '/demo/convert-demo-poster.jpg',
  evaluation: '/demo/evaluation.json',
} as const;

/** What the recording captured from GET /api/loras/:id of the demo Voice. */
export const demoEvidenceSchema = z.object({
  trainedOnCharacters: z.number().nullable(),
  evaluation: voiceEvaluationSchema,
});
export type DemoEvidence = z.infer<typeof demoEvidenceSchema>;
