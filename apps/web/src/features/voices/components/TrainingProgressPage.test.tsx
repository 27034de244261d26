// @vitest-environment happy-dom
// The training page's words follow the run: waiting words (the game "while you wait") only while
// the Voice trains; once it is ready the page says training is done and what to do next, and
// once it failed, that it failed. Only the server is fake.
import type { Voice } from '@ownvoice/shared';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTE_PATTERNS, voiceTrainingPath } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { testVoice } from '../../../lib/test-voice';
import { fakeServer, json } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { TrainingProgressPage } from './TrainingProgressPage';

afterEach(resetPage);

/** The page for `voice`, as the server answers it. */
async function open(voice: Voice) {
  fakeServer().on('GET', `/api/loras/${voice._id}`, () => json(voice));
  renderWithProviders(
    <Routes>
      <Route path={ROUTE_PATTERNS.voiceTraining} element={<TrainingProgressPage />} />
    </Routes>,
    { user: testUser(), path: voiceTrainingPath(voice._id) },
  );
  // The game's heading is there from the start; the panel once the Voice is read.
  await screen.findByTestId(
    voice.status === 'training' ? 'training-progress' : `training-${voice.status === 'failed' ? 'failed' : 'done'}`,
  );
  return document.body.textContent ?? '';
}

describe('TrainingProgressPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('offers the game while you wait, as the Voice trains', async () => {
    const text = await open(
      testVoice({ name: 'Jargon', status: 'training', stage: 'train', progress: 57, etaSeconds: 170 }),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Training progress' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'While you wait: Rota' })).toBeTruthy();
    expect(text).toContain('About 3 minutes left');
  });

  it('says training is done and what to do next once the Voice is ready, no longer "while you wait"', async () => {
    const text = await open(testVoice({ name: 'Jargon', status: 'ready', progress: 100 }));
    expect(text).not.toMatch(/while you wait/i);
    expect(text).not.toMatch(/time left|Estimating/);
    expect(screen.getByRole('heading', { level: 1, name: 'Training done' })).toBeTruthy();
    expect(text).toContain('Jargon is ready!');
    expect(text).toContain('Wake it up on the dashboard to start converting text in your own voice.');
    expect(screen.getByRole('link', { name: 'Go to My Voices' })).toBeTruthy();
    // The game stays, for a round under way, under a heading that waits for nothing.
    expect(screen.getByRole('heading', { level: 3, name: 'A round of Rota' })).toBeTruthy();
  });

  it('says an awake Voice can convert now', async () => {
    const text = await open(testVoice({ name: 'Jargon', status: 'active', progress: 100 }));
    expect(text).not.toMatch(/while you wait/i);
    expect(screen.getByRole('heading', { level: 1, name: 'Training done' })).toBeTruthy();
    expect(text).toContain('It is awake: convert text in your own voice now.');
  });

  it('says training failed, not "while you wait"', async () => {
    const text = await open(
      testVoice({ name: 'Jargon', status: 'failed', progress: 40, statusMessage: 'Out of memory' }),
    );
    expect(text).not.toMatch(/while you wait/i);
    expect(screen.getByRole('heading', { level: 1, name: 'Training failed' })).toBeTruthy();
    expect(text).toContain('Out of memory');
  });
});
