// Proofreading the chunks an edit pass left as the Voice wrote them (it ran out of proofreads, or
// the page was left mid-pass): after a top-up, the person finishes the pass instead of converting
// again. A run of its own, planned against what is left like any pass. Free of React and fetch.
import { type ConversionAction, type ConversionState, conversionReducer, unproofreadIndexes } from './conversion';
import { type EditPassDeps, proofreadChunks } from './conversion-run';

export interface ProofreadRestDeps extends EditPassDeps {
  /** The finished run whose unproofread chunks are proofread. */
  state: ConversionState;
  dispatch(action: ConversionAction): void;
}

export async function proofreadRest(deps: ProofreadRestDeps): Promise<void> {
  const targets = unproofreadIndexes(deps.state);
  if (targets.length === 0) return;
  let current = deps.state;
  const apply = (action: ConversionAction) => {
    current = conversionReducer(current, action);
    deps.dispatch(action);
  };
  apply({ type: 'proofreadStart', runId: deps.runId });
  await proofreadChunks(deps, targets, apply, () => current);
}
