// The admin console acting, end to end in chromium: a super admin with two-factor changes a role
// (the code dialog opens on the server's requiresMFAToken), grants credits, edits limits, invites
// an admin who accepts and sets up two-factor, deletes a user, and reads the activity page. Each
// action takes a fresh code: the authenticator's for the first, backup codes after (a code is good once).
import type { Page } from '@playwright/test';
import {
  E2E_CONSOLE_ADMIN,
  enableTwoFactorOnAccountPage,
  expect,
  expectAccessible,
  logIn,
  mailTo,
  registerViaApi,
  runId,
  screenshot,
  test,
  totp,
} from './support';

/** Answers the console's code dialog with `code`. */
async function confirmWithCode(page: Page, code: string, shot?: string) {
  const dialog = page.getByRole('dialog', { name: 'Confirm with two-factor' });
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('mfa-code').fill(code);
  if (shot) await screenshot(page, shot, { fullPage: false });
  await dialog.getByTestId('mfa-submit').click();
  await expect(dialog).toBeHidden();
}

const userRow = (page: Page, username: string) => page.getByTestId(`admin-user-row-${username}`);

async function findUser(page: Page, username: string) {
  await page.getByRole('textbox', { name: 'Search users' }).fill(username);
  await expect(page.getByTestId('admin-users').locator('tbody tr')).toHaveCount(1);
  return userRow(page, username);
}

test('a super admin changes a role, grants, edits limits, invites, deletes and reads the log', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const member = await registerViaApi(page.request, 'member');
  const leaver = await registerViaApi(page.request, 'leaver');

  // Sign in and turn two-factor on: the console answers nothing without it.
  await page.goto('/auth?tab=login&redirect=%2Fdashboard%2Faccount');
  await logIn(page, E2E_CONSOLE_ADMIN.email, E2E_CONSOLE_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  const { secret, backupCodes, codesDialog } = await enableTwoFactorOnAccountPage(page);
  await codesDialog.getByRole('button', { name: 'I have saved them' }).click();
  const [limitsCode, inviteCode] = backupCodes;
  if (!limitsCode || !inviteCode) throw new Error('too few backup codes');

  // The overview: counts and three charts over thirty days.
  await page.goto('/admin');
  await expect(page.getByTestId('admin-overview')).toContainText('Users');
  for (const chart of ['admin-chart-sign-ups', 'admin-chart-voices-trained', 'admin-chart-waking-hours']) {
    await expect(page.getByTestId(chart)).toBeVisible();
  }
  await expect(page.getByTestId('admin-chart-sign-ups')).toHaveAttribute('aria-label', /Sign-ups per day/);
  await screenshot(page, 'admin-overview-charts');
  await expectAccessible(page, 'the admin overview');

  // Role: the server asks for a code, the dialog takes the authenticator's (the next time step,
  // since the one that turned two-factor on is used up).
  await page.getByRole('tab', { name: 'User Management' }).click();
  // Their own row changes nothing: no grant, limits or role of their own.
  const own = await findUser(page, E2E_CONSOLE_ADMIN.username);
  await expect(own.getByText('You', { exact: true })).toBeVisible();
  await expect(own.getByLabel(`Role of ${E2E_CONSOLE_ADMIN.username}`)).toBeDisabled();
  await expect(own.getByRole('button', { name: 'Grant credits' })).toHaveCount(0);
  await expectAccessible(page, 'the admin user list');
  let row = await findUser(page, member.username);
  await row.getByLabel(`Role of ${member.username}`).selectOption('admin');
  await confirmWithCode(page, totp(secret, 30), 'admin-mfa-dialog');
  await expect(page.getByText('User role updated successfully')).toBeVisible();
  await expect(row.getByLabel(`Role of ${member.username}`)).toHaveValue('admin');
  // The right code opened a few minutes in which the next changes need none.
  await expect(page.getByTestId('admin-confirmed')).toContainText('need no other code');
  await expect(page.getByTestId('admin-confirmed-left')).toHaveText(/^[45]:\d\d$/);

  // Credits, back to back: no code asked.
  await row.getByRole('button', { name: 'Grant credits' }).click();
  const grant = page.getByRole('dialog', { name: `Grant credits to ${member.username}` });
  await grant.getByLabel('Amount').fill('50');
  await grant.getByLabel('Reason').fill('Thanks for the <b>bug report</b>');
  await screenshot(page, 'admin-grant-credits', { fullPage: false });
  await grant.getByRole('button', { name: 'Grant' }).click();
  await expect(page.getByText('Credits granted successfully')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Confirm with two-factor' })).toHaveCount(0);
  await expect(row.getByTestId('admin-user-credits')).toHaveText('50');
  await screenshot(page, 'admin-confirmed-window', { fullPage: false });
  // Ended by hand: the next change asks again.
  await page.getByTestId('admin-confirmed').getByRole('button', { name: 'End now' }).click();
  await expect(page.getByTestId('admin-confirmed')).toHaveCount(0);

  // Limits: a tranche of proofreads and storage slots, with a backup code as issued.
  // Plans are sold here, so a plan comes with its payment: the form does not set one.
  await row.getByRole('button', { name: 'Edit limits' }).click();
  const limits = page.getByRole('dialog', { name: `Edit limits of ${member.username}` });
  await limits.getByLabel('Resource to grant').selectOption('chunkEdits');
  await limits.getByLabel('Amount to grant').fill('30');
  const expiry = new Date(Date.now() + 60 * 24 * 3600_000).toISOString().slice(0, 10);
  await limits.getByLabel('Expires on').fill(expiry);
  await limits.getByLabel('Voice storage slots (total)').fill('5');
  await expect(limits.getByLabel('Plan')).toBeDisabled();
  await expect(limits).toContainText('Comes with the payment; grant usage instead.');
  await screenshot(page, 'admin-edit-limits', { fullPage: false });
  await limits.getByRole('button', { name: 'Save limits' }).click();
  await confirmWithCode(page, limitsCode);
  await expect(page.getByText('Limits updated')).toBeVisible();
  await page.getByTestId('admin-confirmed').getByRole('button', { name: 'End now' }).click();
  await expect(page.getByTestId('admin-confirmed')).toHaveCount(0);

  // An invitation, with a backup code typed without its hyphen: the link is shown to copy.
  await page.getByRole('tab', { name: 'Admin Invites' }).click();
  const inviteForm = page.getByRole('form', { name: 'Invite an admin' });
  const invitee = { username: `inv_${runId}`, email: `inv-${runId}@example.com`, password: 'Passw0rd-invited' };
  await inviteForm.getByLabel('E-mail').fill(invitee.email);
  await inviteForm.getByLabel('Role').selectOption('admin');
  await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
  await confirmWithCode(page, inviteCode.replace('-', ''));
  const url = (await page.getByTestId('invite-url').textContent())?.trim() ?? '';
  expect(url).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  // It waits in the list below, with who sent it, until it is used or revoked.
  await expect(page.getByTestId(`pending-invitation-${invitee.email}`)).toContainText(E2E_CONSOLE_ADMIN.username);
  await screenshot(page, 'admin-invite-link');
  await expectAccessible(page, 'the admin invitations');

  // The invitee gets the same link by e-mail and, in a browser of their own, signs up from it and
  // is asked for two-factor next.
  const invitation = await mailTo(page.request, invitee.email, 'You are invited to OwnVoice as Admin');
  expect(invitation.text).toContain(url);
  expect(invitation.text).toContain(E2E_CONSOLE_ADMIN.username);
  const guest = await browser.newContext();
  const guestPage = await guest.newPage();
  await guestPage.goto(url);
  await expect(guestPage.getByTestId('invitation-title')).toHaveText('You are invited to OwnVoice as Admin');
  await expect(guestPage.getByTestId('invitation-email')).toContainText(invitee.email);
  const accept = guestPage.getByRole('form', { name: 'Accept invitation' });
  await accept.getByLabel('Username').fill(invitee.username);
  await accept.getByLabel('Password', { exact: true }).fill(invitee.password);
  await accept.getByLabel('Confirm password').fill(invitee.password);
  await screenshot(guestPage, 'admin-invitation-page');
  await accept.getByRole('button', { name: 'Create account and accept' }).click();
  await expect(guestPage).toHaveURL(/\/dashboard\/account/);
  await expect(guestPage.getByRole('dialog', { name: 'Set up two-factor authentication' })).toBeVisible();
  await screenshot(guestPage, 'admin-invitee-two-factor', { fullPage: false });
  const invited = await enableTwoFactorOnAccountPage(guestPage, { open: false });
  await invited.codesDialog.getByRole('button', { name: 'I have saved them' }).click();
  await expect(guestPage.getByTestId('navbar-user')).toContainText('Admin');
  // The link is used up.
  await guestPage.goto(url);
  await expect(guestPage.getByTestId('invitation-unavailable')).toBeVisible();
  await guest.close();

  // Deletion: the confirmation (no code inside the window the invitation's opened), then the row is gone.
  await page.getByRole('tab', { name: 'User Management' }).click();
  const doomed = await findUser(page, leaver.username);
  const deleteUser = doomed.getByRole('button', { name: 'Delete user' });
  const confirm = page.getByRole('dialog', { name: `Delete ${leaver.username}?` });
  // By keyboard first: the question opens on Cancel, never on Delete, and Escape gives the focus back.
  await deleteUser.focus();
  await page.keyboard.press('Enter');
  await expect(confirm.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(deleteUser).toBeFocused();
  await deleteUser.click();
  await expect(confirm).toContainText('Are you sure you want to delete this user? This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('User deleted successfully')).toBeVisible();
  await expect(page.getByTestId('admin-users').locator('tbody tr')).toHaveCount(0);

  // The member's activity: one row per action, newest first, and a filter by kind.
  row = await findUser(page, member.username);
  await row.getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { name: 'User activity' })).toBeVisible();
  const rows = page.getByTestId('activity-row');
  await expect(rows.first()).toContainText('Limits changed');
  await expect(page.getByTestId('activity-table')).toContainText('Credits granted');
  await expect(page.getByTestId('activity-table')).toContainText('Role changed');
  await expect(page.getByTestId('activity-table')).toContainText('Signed up');
  await expect(page.getByTestId('activity-table')).toContainText(E2E_CONSOLE_ADMIN.username);
  await screenshot(page, 'admin-activity');
  await page.getByTestId('activity-kind-filter').getByText('Security').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Signed up');

  // The admin's own account page lists their security events.
  await page.goto('/dashboard/account');
  const events = page.getByTestId('security-events');
  await expect(events).toContainText('Two-factor turned on');
  await expect(events).toContainText('Logged in');
  await screenshot(page, 'account-security-events');

  // What the service mailed, on the overview: the invitation, sent through the run's SMTP server.
  await page.goto('/admin');
  const mail = page.getByTestId('admin-mail');
  await expect(mail.getByTestId('admin-mail-destination')).toContainText('SMTP');
  await expect(mail.getByTestId('admin-mail-table')).toContainText(invitee.email);
  await screenshot(page, 'admin-mail');
  await expectAccessible(page, 'the admin overview with its e-mail');
});
