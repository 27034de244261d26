// Which page numbers the console's pagination shows: a window of at most ADMIN_PAGE_BUTTONS
// consecutive pages around the current one, shifted inward at either end so it stays full.
import { ADMIN_PAGE_BUTTONS } from '@ownvoice/shared';

export function pageButtons(page: number, pages: number, max: number = ADMIN_PAGE_BUTTONS): number[] {
  const count = Math.max(0, Math.min(max, pages));
  if (count === 0) return [];
  const current = Math.min(Math.max(1, page), pages);
  const first = Math.min(Math.max(1, current - Math.floor((count - 1) / 2)), pages - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}
