// Convert's texts that only the page shows (the rules and messages shared with the server are in
// @ownvoice/shared: CONVERT_MESSAGES, EDIT_PASS_CONCURRENCY, ALLOWED_LINK_SCHEMES, EDITOR_*; the
// status texts beside the output are in lib/rewrite/status).
import type { RunPhase } from '../../lib/rewrite/conversion';

export const SUBMIT_LABELS: Record<RunPhase, string> = {
  idle: 'Convert',
  streaming: 'Converting...',
  editing: 'Editing...',
};

/** A short generic paragraph to try a first conversion with. */
export const SAMPLE_TEXT = [
  '## Why small businesses should start a blog',
  '',
  'In today’s fast-paced digital landscape, having a blog is more important than ever. A blog allows businesses to ' +
    'showcase their expertise, connect with their audience, and improve their search engine rankings. Furthermore, ' +
    'consistently publishing high-quality content can help build trust and credibility over time.',
  '',
  '- It drives organic traffic to your website.',
  '- It gives you content to share on social media.',
  '- It positions your brand as a thought leader in your industry.',
].join('\n');
