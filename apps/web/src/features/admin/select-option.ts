// Selects hand back text; the console's state holds the option it stands for.

/** The option of `options` a select gave back as text, or null for the empty choice (or anything else). */
export const optionOf = <T extends string>(options: readonly T[], value: string | null): T | null =>
  options.find((option) => option === value) ?? null;
