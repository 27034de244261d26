// Gives focus back to the control that opened a dialog once it closes (issue 57), for a keyboard
// or screen-reader user who would otherwise be dropped at the top of the page. Mantine's own return
// misses three of the app's cases: a dialog mounted already open (it records nothing), an opener
// that is gone by then (a menu item: the menu closed), and a dialog opened from another dialog.
import { useId, useLayoutEffect } from 'react';

/** Where focus goes back: `element`, else (once it is gone or refuses focus) its fallback. */
interface Opener {
  element: HTMLElement;
  /**
   * Finds the same control drawn anew (by its id or test id) when `element` is gone: a form that
   * shows a placeholder while it sends and comes back when the answer asks for a purchase.
   */
  selector: string | null;
  fallback: Opener | null;
}

function selectorOf(element: HTMLElement): string | null {
  if (element.id) return `#${CSS.escape(element.id)}`;
  const testId = element.getAttribute('data-testid');
  return testId ? `[data-testid="${CSS.escape(testId)}"]` : null;
}

const DIALOG_ATTRIBUTE = 'data-dialog-focus';
/** Each mounted dialog's opener, so a control inside it can name it as its own way back. */
const openers = new Map<string, Opener | null>();
/** Open dialogs in the order they opened, each with its place in that order. */
const openDialogs: { id: string; order: number }[] = [];
let openings = 0;
/** The last control focused or pressed: the opener when the active element is gone by the time a dialog opens. */
let lastControl: Opener | null = null;
let tracking = false;

const CONTROL = 'button, a[href], input, select, textarea, [tabindex]';

function menuButton(element: HTMLElement): HTMLElement | null {
  const menuId = element.closest('[role="menu"]')?.id;
  if (!menuId) return null;
  for (const candidate of document.querySelectorAll<HTMLElement>('[aria-controls]')) {
    if (candidate.getAttribute('aria-controls') === menuId) return candidate;
  }
  return null;
}

/** `element` as an opener, with its way back worked out now, while its menu or dialog still stands. */
function openerOf(element: Element | null): Opener | null {
  if (!(element instanceof HTMLElement) || element === document.body || !element.isConnected) return null;
  const dialog = element.closest(`[${DIALOG_ATTRIBUTE}]`)?.getAttribute(DIALOG_ATTRIBUTE);
  const selector = selectorOf(element);
  if (dialog) return { element, selector, fallback: openers.get(dialog) ?? null };
  const button = menuButton(element);
  return { element, selector, fallback: button ? openerOf(button) : null };
}

/**
 * Focus moves to, and presses on, controls that stay (not those in a dialog that is closing): a
 * late return of the focus checks that none came since, or it would take the focus from where the
 * person went next (it did, to an older opener, under load).
 */
let moves = 0;

function rememberControl(event: Event): void {
  const target = event.target instanceof Element ? event.target.closest(CONTROL) : null;
  lastControl = openerOf(target) ?? lastControl;
  if (target instanceof HTMLElement && standing(target)) moves++;
}

function track(): void {
  if (tracking) return;
  tracking = true;
  // Pressing counts too: Safari does not focus a button that is clicked.
  document.addEventListener('focusin', rememberControl, true);
  document.addEventListener('pointerdown', rememberControl, true);
}

/** A busy opener (a loading button) is disabled and loses focus: the last control pressed stands in. */
const currentOpener = (): Opener | null => openerOf(document.activeElement) ?? lastControl;

const dialogElement = (id: string): Element | null =>
  [...document.querySelectorAll(`[${DIALOG_ATTRIBUTE}]`)].find((e) => e.getAttribute(DIALOG_ATTRIBUTE) === id) ?? null;

/** Whether `element` is on screen to stay: not gone, and not in a dialog or menu that is closing. */
function standing(element: HTMLElement): boolean {
  const dialog = element.closest(`[${DIALOG_ATTRIBUTE}]`)?.getAttribute(DIALOG_ATTRIBUTE);
  const menuClosing = menuButton(element)?.getAttribute('aria-expanded') === 'false';
  return element.isConnected && !menuClosing && (!dialog || openDialogs.some((open) => open.id === dialog));
}

/** The control an opener was, drawn anew since: the one element its selector finds. */
function drawnAnew({ selector }: Opener): HTMLElement | null {
  if (!selector) return null;
  const found = document.querySelectorAll<HTMLElement>(selector);
  return found.length === 1 ? (found[0] ?? null) : null;
}

/** Calls `then` once dialog `id` has left the page (its exit transition over), or after 2 s. */
function whenGone(id: string, then: () => void): void {
  const until = performance.now() + 2000;
  const check = () => {
    if (!dialogElement(id) || performance.now() > until) then();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

function restore(opener: Opener | null): void {
  // Under a dialog still open (a form behind a two-factor prompt), focus stays inside that one.
  const under = openDialogs.at(-1);
  const inside = under ? dialogElement(under.id) : null;
  for (let next = opener; next; next = next.fallback) {
    const element = next.element.isConnected ? next.element : drawnAnew(next);
    if (!element || !standing(element) || (inside && !inside.contains(element))) continue;
    element.focus({ preventScroll: true });
    if (document.activeElement === element) return;
  }
}

/**
 * For a dialog's root: remembers what had focus when `opened` turned true (or the dialog mounted
 * open) and gives it focus back when it closes or unmounts. Spread the answer on the dialog and
 * turn Mantine's own return off.
 */
export function useDialogFocus(opened: boolean): { [DIALOG_ATTRIBUTE]: string } {
  const id = useId();
  useLayoutEffect(() => {
    track();
    return () => {
      openers.delete(id);
    };
  }, [id]);
  useLayoutEffect(() => {
    if (!opened) return;
    const opener = currentOpener();
    const order = ++openings;
    openers.set(id, opener);
    openDialogs.push({ id, order });
    return () => {
      openDialogs.splice(
        openDialogs.findIndex((open) => open.id === id),
        1,
      );
      // After the commit, so a dialog that replaces this one (a question leading to the purchase
      // window) is open by then and keeps focus: it hands it back to this opener when it closes.
      queueMicrotask(() => {
        if (openDialogs.some((open) => open.order > order)) return;
        restore(opener);
        const movesThen = moves;
        // Mantine's focus trap may take the focus back while the dialog fades out, and leave it on
        // nothing when the dialog goes (seen once in chromium under load): once it is gone, focus
        // left on nothing goes back again, unless the person moved it since (a busy button they
        // pressed next drops it too).
        whenGone(id, () => {
          const lost = !document.activeElement || document.activeElement === document.body;
          if (lost && moves === movesThen && !openDialogs.some((open) => open.order > order)) restore(opener);
        });
      });
    };
  }, [opened, id]);
  return { [DIALOG_ATTRIBUTE]: id };
}
