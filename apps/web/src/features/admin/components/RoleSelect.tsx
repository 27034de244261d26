// A user's role, changed in place (with a second-factor code). Super admins' roles, and one's own,
// are not changed from the console.
import { NativeSelect } from '@mantine/core';
import { ROLE_LABELS, ROLES, type User } from '@ownvoice/shared';
import { useChangeRole } from '../hooks/use-admin-actions';

const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

export function RoleSelect({ user, self = false }: { user: User; self?: boolean }) {
  const { execute, pending, variables } = useChangeRole(user.id);
  return (
    <NativeSelect
      size="xs"
      w={130}
      aria-label={`Role of ${user.username}`}
      data-testid={`admin-role-select-${user.username}`}
      data={ROLE_OPTIONS}
      // The role asked for shows while it is being set (and while the code dialog is open).
      value={variables ?? user.role}
      disabled={self || user.role === 'super_admin' || pending}
      onChange={(event) => {
        const role = ROLES.find((r) => r === event.currentTarget.value);
        if (role && role !== user.role) execute(role);
      }}
    />
  );
}
