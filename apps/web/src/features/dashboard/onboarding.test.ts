import type { Voice } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import {
  convertPressAdvances,
  DASHBOARD_TOUR_STEPS,
  dashboardTourMode,
  dashboardTourPanels,
  dashboardTourTarget,
  followIndex,
  latestVoice,
} from './onboarding';

const voice = (id: string, createdAt: string): Voice =>
  ({ _id: id, name: id, status: 'training', progress: 0, isPublic: false, createdAt }) as Voice;

describe('dashboard onboarding', () => {
  it('tours at training_started and follows the Voice at rephrasing_tour_complete only', () => {
    expect(dashboardTourMode('training_started')).toBe('tour');
    expect(dashboardTourMode('rephrasing_tour_complete')).toBe('follow');
    expect(dashboardTourMode('activation_tour_complete')).toBeNull();
    expect(dashboardTourMode('plan_active')).toBeNull();
    expect(dashboardTourMode('tutorial_complete')).toBeNull();
  });

  it('has four panels, one per state the latest Voice goes through', () => {
    expect(DASHBOARD_TOUR_STEPS).toHaveLength(4);
    expect(followIndex('training')).toBe(0);
    expect(followIndex('pending')).toBe(0);
    expect(followIndex('ready')).toBe(1);
    expect(followIndex('deactivating')).toBe(1);
    expect(followIndex('activating')).toBe(2);
    expect(followIndex('active')).toBe(3);
    expect(followIndex('failed')).toBeNull();
    expect(DASHBOARD_TOUR_STEPS[3]?.target).toBe('convert');
  });

  it("starts the panels at the Voice's state, leaving out those about states it is past", () => {
    expect(dashboardTourPanels('pending')?.map((panel) => panel.title)).toEqual([
      'Your Voice is training',
      'Wake it up',
      'Waking up',
      'Convert with it',
    ]);
    expect(dashboardTourPanels('ready')?.[0]?.title).toBe('Wake it up');
    expect(dashboardTourPanels('ready')).toHaveLength(3);
    expect(dashboardTourPanels('activating')?.[0]?.title).toBe('Waking up');
    expect(dashboardTourPanels('active')?.map((panel) => panel.title)).toEqual(['Convert with it']);
    expect(dashboardTourPanels('failed')).toBeNull();
  });

  it('follows the newest Voice', () => {
    expect(latestVoice([])).toBeNull();
    const voices = [
      voice('a', '2026-01-02T10:00:00.000Z'),
      voice('b', '2026-01-03T09:00:00.000Z'),
      voice('c', '2026-01-01T00:00:00.000Z'),
    ];
    expect(latestVoice(voices)?._id).toBe('b');
  });

  it('points at the card, its Convert button once awake, or the empty state', () => {
    const id = 'ab'.repeat(12);
    const card = `[data-testid="voice-card"][data-voice-id="${id}"]`;
    expect(dashboardTourTarget('card', { _id: id, status: 'training' })).toBe(card);
    expect(dashboardTourTarget('convert', { _id: id, status: 'active' })).toBe(`${card} a[href^="/dashboard/convert"]`);
    expect(dashboardTourTarget('convert', { _id: id, status: 'training' })).toBe(card);
    expect(dashboardTourTarget('card', null)).toBe('[data-testid="voices-empty"]');
    expect(dashboardTourTarget(null, { _id: id, status: 'active' })).toBeUndefined();
  });

  it('moves to activation_tour_complete on Convert only from rephrasing_tour_complete', () => {
    expect(convertPressAdvances('rephrasing_tour_complete')).toBe(true);
    expect(convertPressAdvances('training_started')).toBe(false);
    expect(convertPressAdvances('activation_tour_complete')).toBe(false);
  });
});
