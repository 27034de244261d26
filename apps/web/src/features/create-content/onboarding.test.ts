import { describe, expect, it } from 'vitest';
import { CREATE_TOUR_STEPS, completesCreateQuickstart, showsCreateQuickstart, showsCreateTour } from './onboarding';

describe('Create onboarding', () => {
  it('tours at training_started only', () => {
    expect(showsCreateTour('training_started')).toBe(true);
    expect(showsCreateTour('rephrasing_tour_complete')).toBe(false);
    expect(CREATE_TOUR_STEPS).toHaveLength(7);
  });

  it('offers the quickstart at convert_quickstart_complete with an empty prompt', () => {
    expect(showsCreateQuickstart('convert_quickstart_complete', true)).toBe(true);
    expect(showsCreateQuickstart('convert_quickstart_complete', false)).toBe(false);
    expect(showsCreateQuickstart('activation_tour_complete', true)).toBe(false);
    expect(completesCreateQuickstart('convert_quickstart_complete')).toBe(true);
    expect(completesCreateQuickstart('create_quickstart_complete')).toBe(false);
  });
});
