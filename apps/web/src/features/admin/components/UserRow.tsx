// One user in the console's list: who, role (changeable), plan, two-factor, credits, actions.
import { Badge, Table, Text } from '@mantine/core';
import type { User } from '@ownvoice/shared';
import { formatCount } from '../../../lib/format';
import { RoleSelect } from './RoleSelect';
import { UserActions } from './UserActions';

export function UserRow({ user }: { user: User }) {
  return (
    <Table.Tr data-testid={`admin-user-row-${user.username}`}>
      <Table.Td>
        <Text fw={600} fz="sm">
          {user.username}
        </Text>
        <Text fz="xs" c="dimmed">
          {user.email}
        </Text>
      </Table.Td>
      <Table.Td>
        <RoleSelect user={user} />
      </Table.Td>
      <Table.Td>{user.plan.name === 'none' ? '—' : user.plan.name}</Table.Td>
      <Table.Td>
        <Badge color={user.mfaEnabled ? 'teal' : 'gray'} size="sm">
          {user.mfaEnabled ? 'On' : 'Off'}
        </Badge>
      </Table.Td>
      <Table.Td ta="right" data-testid="admin-user-credits">
        {formatCount(user.credits)}
      </Table.Td>
      <Table.Td>
        <UserActions user={user} />
      </Table.Td>
    </Table.Tr>
  );
}
