// User management: search by username or e-mail, filter by role, ten to a page; each row acts on
// its user (UserRow). On a screen too narrow for the whole table it scrolls sideways, and each row's
// actions move from the last column to under the user's name, where they are in view.
import { Group, Loader, NativeSelect, Stack, Table, Text, TextInput, useMantineTheme } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { ADMIN_PAGE_SIZE, ROLE_LABELS, ROLES, type Role } from '@ownvoice/shared';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { TableScrollRegion } from '../../../components/TableScrollRegion';
import { errorMessage } from '../../../lib/api-error';
import { needsMfa, useAdminUsers } from '../hooks/use-admin-data';
import { optionOf } from '../select-option';
import { AdminMfaWarning } from './AdminMfaWarning';
import { AdminPagination } from './AdminPagination';
import { UserRow } from './UserRow';

const ROLE_FILTER = [{ value: '', label: 'All roles' }, ...ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))];

export function UserList() {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<Role | null>(null);
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const theme = useMantineTheme();
  // Read at once, not after a first paint: a desktop never shows the narrow layout for a moment.
  const wide = useMediaQuery(`(min-width: ${theme.breakpoints.md})`, undefined, { getInitialValueInEffect: false });
  const { data, error, isPending } = useAdminUsers({
    page,
    limit: ADMIN_PAGE_SIZE,
    search: debounced,
    ...(role ? { role } : {}),
  });
  const pages = data?.data.pagination.pages ?? 0;

  // Deleting the last user of the last page leaves that page empty: show the one before.
  useEffect(() => {
    if (pages > 0 && page > pages) setPage(pages);
  }, [page, pages]);

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
        <NativeSelect
          aria-label="Filter by role"
          size="md"
          data={ROLE_FILTER}
          value={role ?? ''}
          onChange={(e) => {
            setRole(optionOf(ROLES, e.currentTarget.value));
            setPage(1);
          }}
          w={180}
        />
      </Group>
      {error ? <ErrorAlert message={errorMessage(error, 'Failed to load data')} /> : null}
      {isPending && <Loader />}
      {data && (
        <>
          <TableScrollRegion label="Users" minWidth={wide ? 760 : 600}>
            <Table striped highlightOnHover verticalSpacing="xs" data-testid="admin-users">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>User</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Plan</Table.Th>
                  <Table.Th>Two-factor</Table.Th>
                  <Table.Th ta="right">Credits</Table.Th>
                  {wide && <Table.Th ta="right">Actions</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.users.map((u) => (
                  <UserRow key={u.id} user={u} actionsUnderName={!wide} />
                ))}
              </Table.Tbody>
            </Table>
          </TableScrollRegion>
          {data.data.users.length === 0 && <Text c="dimmed">No users match.</Text>}
          <Group justify="space-between">
            <Text fz="sm" c="dimmed" data-testid="admin-users-total">
              {data.data.pagination.total} {data.data.pagination.total === 1 ? 'user' : 'users'}
            </Text>
            <AdminPagination page={page} pages={pages} onChange={setPage} label="User pages" />
          </Group>
        </>
      )}
    </Stack>
  );
}
