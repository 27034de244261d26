// A section's rewrite in the Voice is kept passage by passage (ConversionService.rewriteInParts),
// so the passages the Voice could not write can be retried alone, as Quick Create's page retries
// them. A failed passage keeps the draft's words and is listed in `failed`: never an error marker.
import type { InteractiveSection } from '@ownvoice/shared';
import type { VoiceRow } from '../db/schema.js';
import type { ConversionService } from './conversion.service.js';

type SectionRewrite = Pick<InteractiveSection, 'rephrased' | 'parts' | 'failed'>;

/**
 * Each failed passage rewritten again on its own, with `variation` so the Voice samples another
 * rewrite than the attempts that failed; one that fails again stays as it was.
 */
export async function retryFailedParts(
  conversion: ConversionService,
  voice: VoiceRow,
  section: SectionRewrite,
  variation: number,
  signal: AbortSignal,
): Promise<SectionRewrite> {
  const parts = [...section.parts];
  const failed: number[] = [];
  for (const index of section.failed) {
    const part = parts[index] ?? '';
    const words = part.trim();
    const retried = words ? await conversion.rewriteInParts(voice, words, signal, variation * 1000 + index + 1) : null;
    if (retried && retried.failed.length === 0) {
      // The whitespace before the passage is the draft's layout: it stays.
      parts[index] = part.slice(0, part.length - part.trimStart().length) + retried.text.trim();
    } else {
      failed.push(index);
    }
  }
  return { rephrased: parts.join(''), parts, failed };
}
