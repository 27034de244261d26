// Before an edit pass: it spends one proofread per chunk, so when fewer are left than it needs the
// person chooses, in a dialog raised from here (mounted once, at app level), between proofreading
// the first chunks it can, buying more, or skipping it; whatever is not proofread is marked so.
import { createStore, useStore } from '../create-store';
import { openPurchasePrompt } from '../purchase-prompt';

export type ProofreadChoice = 'first' | 'buy' | 'skip';

export interface ProofreadQuestion {
  needed: number;
  left: number;
  answer(choice: ProofreadChoice): void;
}

const question = createStore<ProofreadQuestion | null>(null);

/** How many of `needed` proofreads to spend, given `left`: all when they suffice, else the person's choice. */
export function planProofreads(needed: number, left: number): Promise<number> {
  if (left >= needed) return Promise.resolve(needed);
  return new Promise((resolve) => {
    // A newer run's question replaces an unanswered one, which then proofreads nothing.
    question.get()?.answer('skip');
    const asked: ProofreadQuestion = {
      needed,
      left: Math.max(0, Math.floor(left)),
      answer(choice) {
        question.set((current) => (current === asked ? null : current));
        if (choice === 'buy') openPurchasePrompt({ kind: 'limit', resource: 'chunkEdits' });
        resolve(choice === 'first' ? asked.left : 0);
      },
    };
    question.set(() => asked);
  });
}

/** The open question, for the dialog; null when none is asked. */
export const useProofreadQuestion = (): ProofreadQuestion | null => useStore(question);
