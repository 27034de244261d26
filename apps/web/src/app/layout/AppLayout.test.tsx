// @vitest-environment happy-dom
// The layout as a keyboard user meets it (issue 57): the first Tab stop on every page is the skip
// link, shown while it has the focus; following it puts the focus on the page's own content, past
// the beta banner's link and the navigation, so the next Tab goes on inside the page.
import type { EngineStatus } from '@ownvoice/shared';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { PATHS } from '../../lib/paths';
import { testUser } from '../../lib/test-user';
import { fakeServer, json } from '../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../test/render';
import { AppLayout } from './AppLayout';

const READY: EngineStatus = {
  state: 'ready',
  model: 'model.gguf',
  source: 'local',
  fallbackReason: null,
  fallbacks: [],
  message: null,
  downloadPercent: null,
};

function renderLayout() {
  fakeServer().on('GET', '/api/public/engine', () => json(READY));
  return renderWithProviders(
    <Routes>
      <Route element={<AppLayout />}>
        <Route path={PATHS.dashboard} element={<button type="button">First on the page</button>} />
      </Route>
    </Routes>,
    { user: testUser(), path: PATHS.dashboard },
  );
}

afterEach(resetPage);

describe('AppLayout', () => {
  it(
    'opens with the skip link as the first Tab stop, out of sight until it has the focus',
    async () => {
      const { person } = renderLayout();
      const skip = screen.getByRole('link', { name: 'Skip to main content' });
      expect(skip.style.transform).not.toBe('none');
      await person.tab();
      expect(document.activeElement).toBe(skip);
      expect(skip.style.transform).toBe('none');
      await person.tab();
      expect(skip.style.transform).not.toBe('none');
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'moves the focus past the banner and the navigation to the page, whose first control is the next Tab',
    async () => {
      const { person } = renderLayout();
      await person.tab();
      await person.keyboard('{Enter}');
      expect(document.activeElement).toBe(screen.getByRole('main'));
      await person.tab();
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'First on the page' }));
      // The router keeps its address: the link adds no #main to it.
      expect(window.location.hash).toBe('');
    },
    PAGE_TEST_TIMEOUT,
  );
});
