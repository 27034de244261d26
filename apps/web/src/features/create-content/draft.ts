// Quick mode's draft: the base model's
// thinking and draft, accumulated from the content stage of the generate stream. The rewrite
// stage's events are Convert's own and go to the shared conversion reducer (lib/rewrite), which
// `rewriteEventsOf` feeds. Pure: every action names its run; only the latest run counts.
import type { CreateEvent } from '@ownvoice/shared';
import type { ConvertStreamEvent } from '../../lib/rewrite/events';
import { CREATE_ERRORS, CREATE_STATUS } from './constants';

/** idle; generating (thinking, then drafting); drafted (the draft is whole); failed (cut short). */
export type DraftPhase = 'idle' | 'generating' | 'drafted' | 'failed';

export interface DraftState {
  runId: number;
  phase: DraftPhase;
  /** The model's thinking, as streamed. */
  thinking: string;
  /** Thinking is streaming right now. */
  thinkingActive: boolean;
  /** The draft (markdown), as streamed; the whole draft once generation completed. */
  draft: string;
  /** The short content the server charged, from the stream's last event: 0 when it was given back. */
  charged: 0 | 1 | undefined;
}

export type DraftAction =
  | { type: 'start'; runId: number }
  | { type: 'event'; runId: number; event: CreateEvent }
  /** The run ended (completed, failed or stopped): a draft not yet whole stays as it was, failed. */
  | { type: 'end'; runId: number };

export const initialDraftState: DraftState = {
  runId: 0,
  phase: 'idle',
  thinking: '',
  thinkingActive: false,
  draft: '',
  charged: undefined,
};

function applyEvent(state: DraftState, event: CreateEvent): DraftState {
  // The last event says what the run was charged, whatever stage it ended in.
  if ((event.type === 'complete' || event.type === 'error') && event.charged !== undefined) {
    state = { ...state, charged: event.charged as 0 | 1 };
  }
  if (state.phase !== 'generating') return state;
  switch (event.type) {
    case 'thinking_start':
      return { ...state, thinkingActive: true };
    case 'thinking':
      return event.text === '' ? state : { ...state, thinking: state.thinking + event.text };
    case 'thinking_end':
      return { ...state, thinkingActive: false };
    case 'content_chunk':
      return { ...state, thinkingActive: false, draft: state.draft + event.text };
    case 'chunk':
      // The draft may also come as `chunk` events of the content stage.
      if (event.stage !== 'content') return state;
      return { ...state, thinkingActive: false, draft: state.draft + event.text };
    case 'generation_complete':
      if (event.stage !== 'content') return state;
      return { ...state, phase: 'drafted', thinkingActive: false, draft: event.text };
    case 'chunk_positions':
      // The rewrite started without a generation_complete: its base text is the draft.
      return { ...state, phase: 'drafted', thinkingActive: false, draft: event.baseText };
    case 'error':
      return { ...state, phase: 'failed', thinkingActive: false };
    default:
      return state;
  }
}

export function draftReducer(state: DraftState, action: DraftAction): DraftState {
  if (action.type === 'start') return { ...initialDraftState, runId: action.runId, phase: 'generating' };
  if (action.runId !== state.runId) return state;
  switch (action.type) {
    case 'event':
      return applyEvent(state, action.event);
    case 'end':
      return state.phase === 'generating' ? { ...state, phase: 'failed', thinkingActive: false } : state;
  }
}

/**
 * The rewrite events of a generate stream, as Convert's stream would send them, in order. Every
 * event also goes to `onEvent` first (for the draft). An error event without text says what failed:
 * the generation, or the rewrite once the draft was whole.
 */
export async function* rewriteEventsOf(
  events: AsyncIterable<CreateEvent>,
  onEvent: (event: CreateEvent) => void,
): AsyncGenerator<ConvertStreamEvent, void, undefined> {
  let drafted = false;
  for await (const event of events) {
    onEvent(event);
    switch (event.type) {
      case 'generation_complete':
        if (event.stage === 'content') drafted = true;
        break;
      case 'chunk_positions':
        if (event.stage !== 'rephrase') break;
        drafted = true;
        yield { type: 'chunk_positions', chunkPositions: event.chunkPositions, baseText: event.baseText };
        break;
      case 'chunk':
        if (event.stage === 'rephrase') yield { type: 'chunk', chunkIndex: event.chunkIndex, text: event.text };
        break;
      case 'chunk_reroll':
        if (event.stage === 'rephrase')
          yield { type: 'chunk_reroll', chunkIndex: event.chunkIndex, reason: event.reason };
        break;
      case 'complete':
        yield { type: 'complete' };
        break;
      case 'error':
        yield {
          type: 'error',
          error: event.error || (drafted ? CREATE_ERRORS.convertFailed : CREATE_ERRORS.generateFailed),
        };
        break;
      default:
        break;
    }
  }
}

/** The status text of the draft panel. */
export function draftStatus(state: DraftState): string | null {
  if (state.phase !== 'generating') return null;
  return state.thinkingActive || state.draft === '' ? CREATE_STATUS.thinking : CREATE_STATUS.drafting;
}
