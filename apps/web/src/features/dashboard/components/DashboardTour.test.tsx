// @vitest-environment happy-dom
// The dashboard tour describes the latest Voice as it is: a ready Voice (a fork is ready from the
// start) is never told it is training, in the tour or while the tour follows it.
import type { OnboardingStep, VoiceStatus } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testUser } from '../../../lib/test-user';
import { testVoice } from '../../../lib/test-voice';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { DashboardTour } from './DashboardTour';

afterEach(resetPage);

function tourFor(step: OnboardingStep, status: VoiceStatus) {
  renderWithProviders(<DashboardTour voices={[testVoice({ status })]} />, { user: testUser({ onboarding: { step } }) });
  return screen.queryByTestId('dashboard-tour');
}

describe('DashboardTour', () => {
  it(
    'opens at "Wake it up" for a ready Voice at training_started, with no panel about training',
    () => {
      const tour = tourFor('training_started', 'ready');
      expect(tour).not.toBeNull();
      const panel = within(tour as HTMLElement);
      expect(panel.getByRole('heading', { name: 'Wake it up' })).toBeTruthy();
      expect(panel.getByTestId('dashboard-tour-counter').textContent).toBe('Step 1 of 3');
      // Back has nowhere to go: there is no training panel behind it.
      expect((panel.getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(true);
      expect(tour?.textContent).not.toContain('training');
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'starts at the training panel while the Voice trains, and shows all four',
    () => {
      const panel = within(tourFor('training_started', 'training') as HTMLElement);
      expect(panel.getByRole('heading', { name: 'Your Voice is training' })).toBeTruthy();
      expect(panel.getByTestId('dashboard-tour-counter').textContent).toBe('Step 1 of 4');
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'following an awake Voice, shows only the Convert panel',
    () => {
      const panel = within(tourFor('rephrasing_tour_complete', 'active') as HTMLElement);
      expect(panel.getByRole('heading', { name: 'Convert with it' })).toBeTruthy();
      expect(panel.getByTestId('dashboard-tour-counter').textContent).toBe('Step 1 of 1');
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'shows nothing for a failed Voice: its card says what went wrong',
    () => {
      expect(tourFor('training_started', 'failed')).toBeNull();
    },
    PAGE_TEST_TIMEOUT,
  );
});
