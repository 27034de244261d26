// User management: search by username or e-mail, filter by role, ten to a page.
import { Badge, Group, Loader, Pagination, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { ROLE_LABELS, ROLES, type Role } from '@ownvoice/shared';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { RoleBadge } from '../../../components/RoleBadge';
import { errorMessage } from '../../../lib/api-error';
import { needsMfa, useAdminUsers } from '../hooks/use-admin-data';
import { AdminMfaWarning } from './AdminMfaWarning';

export function UserList() {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<Role | null>(null);
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const { data, error, isPending } = useAdminUsers({ page, search: debounced, ...(role ? { role } : {}) });

  if (needsMfa(error)) return <AdminMfaWarning />;
  return (
    <Stack gap="md">
      <Group>
        <TextInput
          aria-label="Search users"
          placeholder="Search by username or e-mail"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value.slice(0, 100));
            setPage(1);
          }}
          style={{ flex: 1 }}
        />
        <Select
          aria-label="Filter by role"
          placeholder="All roles"
          clearable
          data={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          value={role}
          onChange={(value) => {
            setRole(value as Role | null);
            setPage(1);
          }}
          w={180}
        />
      </Group>
      {error ? <ErrorAlert message={errorMessage(error, 'Failed to load data')} /> : null}
      {isPending && <Loader />}
      {data && (
        <>
          <Table striped highlightOnHover data-testid="admin-users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Plan</Table.Th>
                <Table.Th>Two-factor</Table.Th>
                <Table.Th ta="right">Credits</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.users.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td>
                    <Text fw={600} fz="sm" component={Link} to={`/admin/users/${u.id}/activity`}>
                      {u.username}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {u.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>{u.role === 'user' ? 'User' : <RoleBadge role={u.role} />}</Table.Td>
                  <Table.Td>{u.plan.name === 'none' ? '—' : u.plan.name}</Table.Td>
                  <Table.Td>
                    <Badge color={u.mfaEnabled ? 'teal' : 'gray'} size="sm">
                      {u.mfaEnabled ? 'On' : 'Off'}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{u.credits}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {data.data.users.length === 0 && <Text c="dimmed">No users match.</Text>}
          <Group justify="space-between">
            <Text fz="sm" c="dimmed">
              {data.data.pagination.total} {data.data.pagination.total === 1 ? 'user' : 'users'}
            </Text>
            <Pagination total={data.data.pagination.pages} value={page} onChange={setPage} size="sm" />
          </Group>
        </>
      )}
    </Stack>
  );
}
