// How dates and counts read across the Voice screens: one locale, so numbers match the messages.

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** "Mar 4, 2026"; the raw value when it is not a date. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_FORMAT.format(date);
}

/** "20,000", the way user-facing messages write counts. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');
