// The status texts beside a rewrite's output, on the Convert and Create Content screens.

export const CONVERT_STATUS = {
  streaming: '(streaming...)',
  editing: (settled: number, total: number) => `(editing ${settled}/${total}...)`,
  rerolling: (count: number) => `(rerolling ${count} chunk(s)...)`,
  /** Chunks the edit pass left as the Voice wrote them, for want of proofreads. */
  notProofread: (count: number) => `(${count} chunk(s) not proofread: out of proofreads)`,
  /** The edit pass proofread the text and found nothing to change: said, so no change is not taken for a fault. */
  unchanged: '(edit pass done: nothing needed changing)',
} as const;
