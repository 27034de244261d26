import type { Activity } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { activityActorName, activityRow } from './activity';

const event = (overrides: Partial<Activity> = {}): Activity => ({
  id: 'a1',
  _id: 'a1',
  kind: 'admin',
  action: 'role_changed',
  details: 'Role changed from User to Admin',
  actor: { id: 'u0', username: 'boss' },
  userId: 'u1',
  before: { role: 'user' },
  after: { role: 'admin' },
  createdAt: '2026-03-04T10:00:00.000Z',
  ...overrides,
});

describe('activity rows', () => {
  it('names the action as the console does and says who acted', () => {
    expect(activityRow(event())).toMatchObject({
      id: 'a1',
      action: 'Role changed',
      details: 'Role changed from User to Admin',
      by: 'boss',
    });
    expect(activityRow(event({ action: 'login_failed', kind: 'security' })).action).toBe('Failed login');
  });

  it('reads System when nobody acted and Deleted user when the actor is gone', () => {
    expect(activityActorName(null)).toBe('System');
    expect(activityActorName({ id: 'u9', username: null })).toBe('Deleted user');
  });

  it('dates the event to the minute', () => {
    expect(activityRow(event()).date).toMatch(/^Mar 4, 2026, \d{1,2}:00 (AM|PM)$/);
  });
});
