// The tours a person closed, kept per user, tour and onboarding step in the browser: a closed
// tour stays closed on the next visit, and reaching a later step may bring it (or the next
// guide) back.
import type { OnboardingStep } from '@ownvoice/shared';
import type { KeyValueStorage } from './browser-storage';

export const tourDismissalKey = (userId: string, tour: string, step: OnboardingStep): string =>
  `ownvoice.tour.${userId}.${tour}.${step}`;

export function isTourDismissed(storage: KeyValueStorage | null, key: string): boolean {
  try {
    return storage?.getItem(key) === 'closed';
  } catch {
    return false;
  }
}

export function dismissTour(storage: KeyValueStorage | null, key: string): void {
  try {
    storage?.setItem(key, 'closed');
  } catch (error) {
    console.warn('Could not remember a closed tour', error);
  }
}
