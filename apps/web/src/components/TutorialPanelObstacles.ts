// What a tutorial panel must keep clear of, read from the page: the field the person is filling
// in (where the focus is, outside the panel) and any modal dialog, which the panel never sits on.

/** Inputs a person types or picks into; buttons, checkboxes and the like are not filled in. */
const TYPED_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'time']);

function isFillable(element: Element): boolean {
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  if (element instanceof HTMLInputElement) return TYPED_INPUTS.has(element.type || 'text');
  return element instanceof HTMLElement && element.isContentEditable;
}

/** The field being filled in, unless it is in the panel itself; null when the focus is elsewhere. */
export function fieldBeingFilled(panel: HTMLElement | null): HTMLElement | null {
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || !isFillable(focused)) return null;
  return panel?.contains(focused) ? null : focused;
}

/** A modal dialog is open (Mantine's Modal and Drawer mark theirs aria-modal); the panel is not one. */
export const modalDialogOpen = (): boolean => document.querySelector('[role="dialog"][aria-modal="true"]') !== null;
