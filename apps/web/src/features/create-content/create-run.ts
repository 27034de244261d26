// One Quick generation, free of React and fetch so it can be
// tested: the generate stream's content stage goes to the draft reducer, its rewrite stage through
// the shared conversion run (lib/rewrite), which then runs the optional edit pass.
import type { CreateEvent } from '@ownvoice/shared';
import type { ConversionState } from '../../lib/rewrite/conversion';
import { type ConversionRunDeps, runConversion } from '../../lib/rewrite/conversion-run';
import type { GenerateRequest } from './api';
import { type DraftAction, rewriteEventsOf } from './draft';
import { generateFailureMessage } from './errors';

export interface CreateRunDeps
  extends Omit<ConversionRunDeps, 'openStream' | 'text' | 'requestFailureMessage' | 'onRequestRefused'> {
  request: Omit<GenerateRequest, 'signal' | 'loraId'>;
  dispatchDraft(action: DraftAction): void;
  openGenerateStream(request: GenerateRequest): Promise<AsyncIterable<CreateEvent>>;
  onRequestRefused?: ConversionRunDeps['onRequestRefused'];
}

export async function runCreate(deps: CreateRunDeps): Promise<ConversionState> {
  const { runId, dispatchDraft, openGenerateStream, request, ...rest } = deps;
  dispatchDraft({ type: 'start', runId });
  try {
    return await runConversion({
      ...rest,
      runId,
      // The rewrite's base text is the draft, which its chunk_positions event brings.
      text: '',
      requestFailureMessage: generateFailureMessage,
      openStream: async ({ loraId, signal }) => {
        const events = await openGenerateStream({ ...request, loraId, signal });
        return rewriteEventsOf(events, (event) => {
          if (!signal.aborted) dispatchDraft({ type: 'event', runId, event });
        });
      },
    });
  } finally {
    dispatchDraft({ type: 'end', runId });
  }
}
