// @vitest-environment happy-dom
// A Voice's pages (details and training) at an address that names no Voice say that the Voice does
// not exist, for an id of the right shape the server does not know and for one of the wrong
// shape; and a Voice's details show no internal ids. Only the server is fake.
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTE_PATTERNS } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { testVoice } from '../../../lib/test-voice';
import { fakeServer, json, refusal } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { TrainingProgressPage } from './TrainingProgressPage';
import { VoiceDetailsPage } from './VoiceDetailsPage';

afterEach(resetPage);

const UNKNOWN = '000000000000000000000000';

function open(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path={ROUTE_PATTERNS.voice} element={<VoiceDetailsPage />} />
      <Route path={ROUTE_PATTERNS.voiceTraining} element={<TrainingProgressPage />} />
    </Routes>,
    { user: testUser(), path },
  );
}

function serveNotFound() {
  const server = fakeServer();
  server.on('GET', `/api/loras/${UNKNOWN}`, () => refusal(404, { msg: 'Voice not found', code: 'NOT_FOUND' }));
  return server;
}

describe('a Voice that does not exist', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('details: an id the server does not know', async () => {
    serveNotFound();
    open(`/dashboard/loras/${UNKNOWN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Voice not found' })).toBeTruthy();
    expect(screen.getByTestId('voice-not-found').textContent).toContain('This Voice does not exist');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('details: an id that cannot be a Voice’s, never asked for', async () => {
    const server = fakeServer();
    open('/dashboard/loras/not-a-voice');
    expect(await screen.findByRole('heading', { level: 1, name: 'Voice not found' })).toBeTruthy();
    expect(screen.getByTestId('voice-not-found').textContent).toContain('This Voice does not exist');
    expect(server.calls('GET', '/api/loras/not-a-voice')).toHaveLength(0);
  });

  it('training: says so instead of "Failed to fetch", without the game', async () => {
    serveNotFound();
    open(`/dashboard/loras/${UNKNOWN}/training`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Voice not found' })).toBeTruthy();
    expect(screen.queryByText(/Failed to fetch/)).toBeNull();
    expect(screen.queryByRole('heading', { name: /Rota/ })).toBeNull();
  });
});

describe('a Voice’s details', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('show no pipeline id, with one or without', async () => {
    for (const pipelineId of [null, 'run-7f3a']) {
      const voice = testVoice({ _id: 'ab'.repeat(12), pipeline_id: pipelineId });
      const server = fakeServer();
      server.on('GET', `/api/loras/${voice._id}`, () => json(voice));
      const view = open(`/dashboard/loras/${voice._id}`);
      expect(await screen.findByTestId('voice-facts')).toBeTruthy();
      expect(document.body.textContent).not.toMatch(/pipeline/i);
      expect(document.body.textContent).not.toContain('run-7f3a');
      view.unmount();
    }
  });
});
