// Convert's texts that only the page shows (the rules and messages shared with the server are in
// @ownvoice/shared: CONVERT_MESSAGES, EDIT_PASS_CONCURRENCY, ALLOWED_LINK_SCHEMES, EDITOR_*).

/** Status texts beside the output. */
export const CONVERT_STATUS = {
  streaming: '(streaming...)',
  editing: (settled: number, total: number) => `(editing ${settled}/${total}...)`,
  rerolling: (count: number) => `(rerolling ${count} chunk(s)...)`,
} as const;

export const SUBMIT_LABELS = {
  idle: 'Convert',
  streaming: 'Converting...',
  editing: 'Editing...',
} as const;
