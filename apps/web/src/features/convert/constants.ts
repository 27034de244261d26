// Convert's texts that only the page shows (the rules and messages shared with the server are in
// @ownvoice/shared: CONVERT_MESSAGES, EDIT_PASS_CONCURRENCY, ALLOWED_LINK_SCHEMES, EDITOR_*; the
// status texts beside the output are in lib/rewrite/status).
import type { RunPhase } from '../../lib/rewrite/conversion';

export const SUBMIT_LABELS: Record<RunPhase, string> = {
  idle: 'Convert',
  streaming: 'Converting...',
  editing: 'Editing...',
};
