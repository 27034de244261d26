// @vitest-environment happy-dom
// The dashboard as a person drives it: no Voices yet asks for the first one; a sleeping Voice
// wakes from its card and then offers Convert; a wake the server refuses goes back to asleep and
// says why; a list that failed to load says so and loads on Try again. Only the server is fake.
import type { Voice } from '@ownvoice/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PATHS } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { testVoice } from '../../../lib/test-voice';
import { fakeServer, json, refusal } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { DashboardPage } from './DashboardPage';

afterEach(resetPage);

// Past the tours, so only the page itself shows.
const openDashboard = () =>
  renderWithProviders(<DashboardPage />, {
    user: testUser({ onboarding: { step: 'tutorial_complete' } }),
    path: PATHS.dashboard,
  });

describe('the dashboard', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('asks for a first Voice when there is none', async () => {
    fakeServer().on('GET', '/api/loras', () => json<Voice[]>([]));
    openDashboard();
    const empty = await screen.findByTestId('voices-empty');
    expect(within(empty).getAllByText('Create Your First Voice').length).toBeGreaterThan(0);
  });

  it('wakes a sleeping Voice from its card, which then offers Convert', async () => {
    const voice = testVoice({ status: 'ready' });
    let awake = false;
    const server = fakeServer();
    server.on('GET', '/api/loras', () => json<Voice[]>([{ ...voice, status: awake ? 'active' : 'ready' }]));
    server.on('POST', `/api/loras/${voice._id}/activate`, () => {
      awake = true;
      return json<Voice>({ ...voice, status: 'active' });
    });
    const { person } = openDashboard();
    const card = await screen.findByTestId('voice-card');
    await person.click(within(card).getByRole('button', { name: 'Wake Up' }));
    await waitFor(() => expect(card.getAttribute('data-status')).toBe('active'));
    expect(within(card).getByRole('link', { name: /Convert/ })).toBeTruthy();
    expect(server.calls('POST', `/api/loras/${voice._id}/activate`)).toHaveLength(1);
  });

  it('puts a Voice whose wake was refused back to sleep, and says why', async () => {
    const voice = testVoice({ status: 'ready' });
    const server = fakeServer();
    server.on('GET', '/api/loras', () => json<Voice[]>([voice]));
    server.on('POST', `/api/loras/${voice._id}/activate`, () =>
      refusal(503, {
        msg: 'The language model is not ready. Please try again in a minute.',
        code: 'ENGINE_UNAVAILABLE',
      }),
    );
    const { person } = openDashboard();
    const card = await screen.findByTestId('voice-card');
    await person.click(within(card).getByRole('button', { name: 'Wake Up' }));
    expect(await screen.findByText(/The language model is not ready/)).toBeTruthy();
    await waitFor(() => expect(card.getAttribute('data-status')).toBe('ready'));
  });

  it('says the list could not load, and loads it on Try again', async () => {
    let failing = true;
    const server = fakeServer();
    server.on('GET', '/api/loras', () =>
      failing ? refusal(500, { msg: 'Something went wrong', code: 'INTERNAL_ERROR' }) : json<Voice[]>([testVoice()]),
    );
    const { person } = openDashboard();
    expect(await screen.findByRole('alert')).toBeTruthy();
    failing = false;
    await person.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('voice-card')).toBeTruthy();
  });
});
