// One user in the console's list: who, role (changeable), plan, two-factor, credits, actions. The
// signed-in admin's own row changes nothing: nobody grants themself usage or sets their own role.
// On a narrow screen the actions sit under the name and e-mail, in the column that is always in view.
import { Badge, Box, Group, Table, Text } from '@mantine/core';
import type { User } from '@ownvoice/shared';
import { formatCount } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/session-context';
import { RoleSelect } from './RoleSelect';
import { UserActions } from './UserActions';

export function UserRow({ user, actionsUnderName = false }: { user: User; actionsUnderName?: boolean }) {
  const self = useCurrentUser().id === user.id;
  return (
    <Table.Tr data-testid={`admin-user-row-${user.username}`}>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Text fw={600} fz="sm">
            {user.username}
          </Text>
          {self && (
            <Badge size="xs" variant="light">
              You
            </Badge>
          )}
        </Group>
        <Text fz="xs" c="dimmed">
          {user.email}
        </Text>
        {actionsUnderName && (
          <Box mt={6}>
            <UserActions user={user} self={self} justify="flex-start" />
          </Box>
        )}
      </Table.Td>
      <Table.Td>
        <RoleSelect user={user} self={self} />
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
      {!actionsUnderName && (
        <Table.Td>
          <UserActions user={user} self={self} />
        </Table.Td>
      )}
    </Table.Tr>
  );
}
