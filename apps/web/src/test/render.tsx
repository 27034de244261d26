// A page rendered into the test's DOM (happy-dom), inside the providers the app gives it: Mantine
// with the app's own theme (and its toasts), TanStack Query, a router at `path`, and a session for `user` whose refresh
// and onboarding moves answer as the server would. Only the server is fake (see fake-server.ts).
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { type OnboardingStep, TOAST_MAX, type User } from '@ownvoice/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { cssVariablesResolver, theme } from '../app/theme';
import { resetStores } from '../lib/create-store';
import { type Session, SessionContext } from '../lib/session/session-context';
import { testSession } from '../lib/test-render';

/** A whole page in a DOM on a shared, busy machine: more room than vitest's 5 s. */
export const PAGE_TEST_TIMEOUT = 30_000;

// findBy* and waitFor wait for the page to reach a state; Testing Library gives up after 1 s,
// which a busy machine's first render of a page (its lazy chunks transformed on demand) can pass.
// The bound is a limit, not a pace: a page that gets there sooner ends the wait sooner.
configure({ asyncUtilTimeout: 10_000 });

export interface RenderOptions {
  user: User;
  /** The route the page opens at, query included. */
  path?: string;
}

/** The session's calls a test can inspect: refreshes read the user again, onboarding moves are recorded. */
function pageSession(user: User) {
  const base = testSession(user);
  const refresh = vi.fn(() => Promise.resolve(user));
  const advanceOnboarding = vi.fn((step: OnboardingStep) => Promise.resolve({ ...user, onboarding: { step } }));
  const session: Session = { ...base, refresh, advanceOnboarding };
  return { session, refresh, advanceOnboarding };
}

export function renderWithProviders(node: ReactNode, { user, path = '/' }: RenderOptions) {
  // No retries: a refused call shows at once, as it would after the app's one retry.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const { session, refresh, advanceOnboarding } = pageSession(user);
  const view = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications limit={TOAST_MAX} />
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <SessionContext.Provider value={session}>{node}</SessionContext.Provider>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...view, person: userEvent.setup({ delay: null }), refresh, advanceOnboarding };
}

/** What a text field labelled `name` holds, as the person sees it. */
export function fieldValue(name: string): string {
  const field = screen.getByRole('textbox', { name });
  if (field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement) return field.value;
  return field.textContent ?? '';
}

/** After each test: the page unmounted, its toasts gone, the fake server gone, nothing kept in the browser. */
export function resetPage(): void {
  cleanup();
  // The toasts live in a store of their own, which outlives the page.
  notifications.clean();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  // What a page kept in the tab (kept-work.ts) as it unmounted belongs to that test alone.
  sessionStorage.clear();
  // As are the drafts and prompts kept in stores outside React (lib/create-store.ts).
  resetStores();
}
