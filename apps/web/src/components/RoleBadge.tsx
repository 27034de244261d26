import { Badge, type BadgeProps } from '@mantine/core';
import { ROLE_LABELS, type Role } from '@ownvoice/shared';

const ROLE_COLORS: Record<Role, string> = { user: 'gray', admin: 'orange', super_admin: 'red' };

export function RoleBadge({ role, ...props }: { role: Role } & BadgeProps) {
  return (
    <Badge color={ROLE_COLORS[role]} {...props}>
      {ROLE_LABELS[role]}
    </Badge>
  );
}
