// The one purchase prompt: a feature whose call failed because a resource ran out hands
// the error here, and the modal mounted at app level shows what ran out. An external store, so any
// hook or plain function can raise it without threading a context through.
import { createStore, useStore } from './create-store';
import { detectInsufficientLimit, type InsufficientLimit } from './insufficient-limit';

const prompt = createStore<InsufficientLimit | null>(null);

/**
 * Opens the purchase modal when the error says a resource ran out. Returns true when it did, so
 * the caller shows nothing else (no toast, no form error).
 */
export function handleInsufficientLimit(error: unknown): boolean {
  const limit = detectInsufficientLimit(error);
  if (!limit) return false;
  openPurchasePrompt(limit);
  return true;
}

/** Opens the purchase modal for a resource the screen knows will run short. */
export function openPurchasePrompt(limit: InsufficientLimit): void {
  prompt.set(() => limit);
}

export function closePurchasePrompt(): void {
  prompt.set(() => null);
}

/** What the modal shows now; null while it is closed. */
export function usePurchasePrompt(): InsufficientLimit | null {
  return useStore(prompt);
}
