// @vitest-environment happy-dom
// Signing in as a person does, through the auth page and the app's real session (SessionProvider):
// a wrong password and a locked account say so in words; an account with two-factor asks for
// the code, a wrong code says so, and the right one lands on the page the link asked for with the
// token kept. Only the server is fake.
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthPage } from '../../features/auth/components/AuthPage';
import { AUTH_MESSAGES } from '../../features/auth/error-messages';
import { testUser } from '../../lib/test-user';
import { readToken } from '../../lib/token-storage';
import { fakeServer, json, refusal } from '../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../test/render';
import { SessionProvider } from './SessionProvider';

afterEach(() => {
  resetPage();
  localStorage.clear();
});

const EMAIL = 'writer@example.com';
const PASSWORD = 'correct horse battery staple';

function Landed() {
  const location = useLocation();
  return <p data-testid="landed">{location.pathname}</p>;
}

/** The auth page at the login tab, asked to go on to Convert afterwards. */
function openSignIn() {
  const user = testUser({ email: EMAIL });
  const server = fakeServer();
  server.on('GET', '/api/auth/me', () => json({ user }));
  const view = renderWithProviders(
    <SessionProvider>
      <Routes>
        <Route path="/auth" element={<AuthPage />} />
        <Route path="*" element={<Landed />} />
      </Routes>
    </SessionProvider>,
    { user, path: '/auth?tab=login&redirect=%2Fconvert' },
  );
  return { server, ...view };
}

async function typeCredentials(person: ReturnType<typeof openSignIn>['person'], password = PASSWORD) {
  await person.type(await screen.findByRole('textbox', { name: 'E-mail' }), EMAIL);
  await person.type(screen.getByLabelText('Password'), password);
  await person.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('signing in', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('says a wrong password in words, and that a locked account must wait', async () => {
    const { server, person } = openSignIn();
    server.on('POST', '/api/auth/login', () =>
      refusal(401, { msg: 'Invalid credentials', code: 'INVALID_CREDENTIALS' }),
    );
    await typeCredentials(person, 'wrong password');
    expect(await screen.findByText(AUTH_MESSAGES.invalidCredentials)).toBeTruthy();

    server.on('POST', '/api/auth/login', () =>
      refusal(423, {
        msg: 'Account is temporarily locked',
        code: 'ACCOUNT_LOCKED',
        details: { retryAfterSeconds: 7200 },
      }),
    );
    await person.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText(AUTH_MESSAGES.accountLocked)).toBeTruthy();
    expect(readToken()).toBeNull();
  });

  it('asks for the two-factor code, refuses a wrong one, and lands where the link asked with the right one', async () => {
    const { server, person } = openSignIn();
    server.on('POST', '/api/auth/login', ({ body }) => {
      const code = (body as { mfaToken?: string }).mfaToken;
      if (!code) return json({ requiresMFA: true });
      if (code !== '123456') return refusal(401, { msg: 'Invalid MFA token', code: 'INVALID_MFA_TOKEN' });
      return json({ token: 'session-token', user: testUser({ email: EMAIL }) });
    });
    await typeCredentials(person);
    const code = await screen.findByRole('textbox', { name: 'Authentication code' });
    await person.type(code, '654321');
    await person.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect(await screen.findByText(AUTH_MESSAGES.invalidCode)).toBeTruthy();

    await person.clear(code);
    await person.type(code, '123456');
    await person.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect((await screen.findByTestId('landed')).textContent).toBe('/convert');
    await waitFor(() => expect(readToken()).toBe('session-token'));
    expect(
      server.calls('POST', '/api/auth/login').map((call) => (call.body as { mfaToken?: string }).mfaToken),
    ).toEqual([undefined, '654321', '123456']);
  });
});
