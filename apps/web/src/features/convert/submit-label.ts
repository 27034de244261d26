// The Convert button's label: Convert, Converting... or Editing...
import { type ConversionState, runPhase } from '../../lib/rewrite/conversion';
import { SUBMIT_LABELS } from './constants';

export const submitLabel = (state: ConversionState): string => SUBMIT_LABELS[runPhase(state)];
