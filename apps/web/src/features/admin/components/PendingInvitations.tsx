// The invitations still waiting to be accepted, with who sent them and when each runs out; any of
// them can be revoked (its link stops working). Invitations die by themselves when used, out of
// time, or when their inviter loses the right to send them.
import { Button, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { type PendingInvitation, ROLE_LABELS } from '@ownvoice/shared';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { TableScrollRegion } from '../../../components/TableScrollRegion';
import { formatDateTime } from '../../../lib/format';
import { useRevokeInvitation } from '../hooks/use-admin-actions';
import { usePendingInvitations } from '../hooks/use-admin-data';

export function PendingInvitations() {
  const { data, error, isPending } = usePendingInvitations();
  return (
    <Stack gap="sm" data-testid="pending-invitations">
      <Title order={3} size="h4">
        Waiting invitations
      </Title>
      {error ? <ErrorAlert message="Failed to load data" /> : null}
      {!isPending && data?.length === 0 ? (
        <Text c="dimmed">No invitation is waiting.</Text>
      ) : (
        <TableScrollRegion label="Pending invitations" minWidth={560}>
          <Table verticalSpacing="xs" aria-label="Waiting invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Sent by</Table.Th>
                <Table.Th>Link works until</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(data ?? []).map((invitation) => (
                <InvitationRow key={invitation.id} invitation={invitation} />
              ))}
            </Table.Tbody>
          </Table>
        </TableScrollRegion>
      )}
    </Stack>
  );
}

function InvitationRow({ invitation }: { invitation: PendingInvitation }) {
  const revoke = useRevokeInvitation(invitation.id);
  return (
    <Table.Tr data-testid={`pending-invitation-${invitation.email}`}>
      <Table.Td>{invitation.email}</Table.Td>
      <Table.Td>{ROLE_LABELS[invitation.role]}</Table.Td>
      <Table.Td>{invitation.invitedBy?.username ?? '—'}</Table.Td>
      <Table.Td>{formatDateTime(invitation.expiresAt)}</Table.Td>
      <Table.Td ta="right">
        <Button
          size="xs"
          variant="subtle"
          color="red"
          loading={revoke.pending}
          aria-label={`Revoke the invitation of ${invitation.email}`}
          onClick={() => revoke.execute()}
        >
          Revoke
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
