// The status texts beside a rewrite's output (spec §2 "Convert", §2 "Create Content").

export const CONVERT_STATUS = {
  streaming: '(streaming...)',
  editing: (settled: number, total: number) => `(editing ${settled}/${total}...)`,
  rerolling: (count: number) => `(rerolling ${count} chunk(s)...)`,
} as const;
