// The admin rules as pure decisions: who may change whose role, and who may delete whom.
import { describe, expect, it } from 'vitest';
import { adminPolicy } from './index.js';

const superAdmin = { id: 'super-1', role: 'super_admin' as const };
const otherSuper = { id: 'super-2', role: 'super_admin' as const };
const admin = { id: 'admin-1', role: 'admin' as const };
const otherAdmin = { id: 'admin-2', role: 'admin' as const };
const user = { id: 'user-1', role: 'user' as const };
const refusal = adminPolicy.refusalToActOn;

describe('admin policy', () => {
  it('lets admins manage users, and super admins manage admins', () => {
    expect(refusal(admin, user, { kind: 'role', role: 'admin' }, 1)).toBeNull();
    expect(refusal(admin, user, { kind: 'delete' }, 1)).toBeNull();
    expect(refusal(superAdmin, admin, { kind: 'role', role: 'user' }, 1)).toBeNull();
    expect(refusal(superAdmin, user, { kind: 'role', role: 'super_admin' }, 1)).toBeNull();
  });

  it('keeps admins away from super admins, and from making one', () => {
    expect(refusal(admin, superAdmin, { kind: 'role', role: 'user' }, 2)).toMatch(/Only a super admin/);
    expect(refusal(admin, superAdmin, { kind: 'delete' }, 2)).toMatch(/Only a super admin/);
    expect(refusal(admin, user, { kind: 'role', role: 'super_admin' }, 1)).toMatch(/make someone a super admin/);
  });

  it('never deletes a super admin, and never demotes the last one', () => {
    expect(refusal(superAdmin, otherSuper, { kind: 'delete' }, 2)).toMatch(/cannot be deleted/);
    expect(refusal(superAdmin, otherSuper, { kind: 'role', role: 'admin' }, 2)).toBeNull();
    expect(refusal(otherSuper, superAdmin, { kind: 'role', role: 'admin' }, 1)).toMatch(/last super admin/);
  });

  it('stops anyone acting on themself: role, deletion, usage, limits, refunds', () => {
    for (const actor of [admin, superAdmin]) {
      for (const change of [
        { kind: 'role', role: 'user' },
        { kind: 'role', role: actor.role },
        { kind: 'role', role: 'super_admin' },
        { kind: 'delete' },
        { kind: 'grant' },
        { kind: 'limits' },
        { kind: 'refund' },
      ] as const) {
        expect(refusal(actor, actor, change, 2)).toMatch(/your own account/);
      }
    }
  });

  it('lets admins grant to, edit the limits of and refund anyone but a super admin (and themself)', () => {
    for (const kind of ['grant', 'limits', 'refund'] as const) {
      expect(refusal(admin, user, { kind }, 1)).toBeNull();
      expect(refusal(admin, otherAdmin, { kind }, 1)).toBeNull();
      expect(refusal(admin, superAdmin, { kind }, 1)).toMatch(/Only a super admin/);
      expect(refusal(superAdmin, otherSuper, { kind }, 2)).toBeNull();
    }
  });

  it('lets only a super admin invite a super admin', () => {
    expect(adminPolicy.refusalToInvite(admin, 'admin')).toBeNull();
    expect(adminPolicy.refusalToInvite(admin, 'super_admin')).toMatch(/Only a super admin/);
    expect(adminPolicy.refusalToInvite(superAdmin, 'super_admin')).toBeNull();
  });
});
