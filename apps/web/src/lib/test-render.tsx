// A component rendered to HTML for unit tests (no DOM here): inside the app's providers, with a
// made-up session for `user` (or none) at `path`.
import { MantineProvider } from '@mantine/core';
import type { User } from '@ownvoice/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { type Session, SessionContext } from './session/session-context';

const unused = () => Promise.reject(new Error('not in this test'));

export function testSession(user: User | null): Session {
  return {
    status: user ? 'authenticated' : 'unauthenticated',
    user,
    login: unused,
    signInWithToken: unused,
    logout: () => undefined,
    refresh: () => Promise.resolve(user),
    advanceOnboarding: unused,
  };
}

export function renderHtml(node: ReactNode, { user = null, path = '/' }: { user?: User | null; path?: string } = {}) {
  return renderToStaticMarkup(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <SessionContext.Provider value={testSession(user)}>{node}</SessionContext.Provider>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** The text a person reads in `html`: styles and tags dropped, entities undone, spaces collapsed. */
export const textOf = (html: string): string =>
  html
    .replace(/<style[^>]*>[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:!?])/g, '$1')
    .trim();
