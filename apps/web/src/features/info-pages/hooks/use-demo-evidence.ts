import { useQuery } from '@tanstack/react-query';
import { DEMO_MEDIA, type DemoEvidence, demoEvidenceSchema } from '../demo-media';

async function fetchDemoEvidence(signal: AbortSignal): Promise<DemoEvidence> {
  const response = await fetch(DEMO_MEDIA.realVoice, { signal });
  if (!response.ok) throw new Error(`The real Voice's evaluation could not be loaded (${response.status}).`);
  return demoEvidenceSchema.parse(await response.json());
}

/** The real Voice's evaluation, fetched when the landing page shows it: it stays out of the first download. */
export function useDemoEvidence() {
  return useQuery({
    queryKey: ['demo-evidence'],
    queryFn: ({ signal }) => fetchDemoEvidence(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
