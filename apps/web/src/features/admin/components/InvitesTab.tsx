// Admin invites: an e-mail and a role (admin or super admin) give a one-time link, good for a
// day, that the admin passes on; the new admin signs up (or signs in) through it.
import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import {
  firstIssueMessage,
  INVITATION_TTL_MS,
  INVITE_ROLES,
  type InviteResponse,
  inviteBodySchema,
  ROLE_LABELS,
} from '@ownvoice/shared';
import { type FormEvent, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useInviteAdmin } from '../hooks/use-admin-actions';
import { optionOf } from '../select-option';
import { InvitationLinkAlert } from './InvitationLinkAlert';
import { PendingInvitations } from './PendingInvitations';

const ROLE_OPTIONS = INVITE_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
const TTL_HOURS = Math.round(INVITATION_TTL_MS / (60 * 60 * 1000));

export function InvitesTab() {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<(typeof INVITE_ROLES)[number]>('admin');
  const [formError, setFormError] = useState<string | null>(null);
  const [invitation, setInvitation] = useState<InviteResponse['data'] | null>(null);
  const invite = useInviteAdmin((result) => {
    setInvitation(result);
    setEmail('');
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.clearError();
    const parsed = inviteBodySchema.safeParse({ email, role });
    if (!parsed.success) {
      setFormError(firstIssueMessage(parsed.error));
      return;
    }
    setFormError(null);
    setInvitation(null);
    invite.execute(parsed.data);
  };

  return (
    <Stack gap="lg" maw={640}>
      <Text c="dimmed">
        Invite a new admin or super admin by e-mail. The link works once and expires after {TTL_HOURS} hours; accepting
        it asks for two-factor setup next.
      </Text>
      <form onSubmit={submit} noValidate aria-label="Invite an admin">
        <Stack gap="md">
          <Group align="flex-end" gap="sm">
            <TextInput
              label="E-mail"
              name="email"
              type="email"
              autoComplete="off"
              placeholder="new.admin@example.com"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              style={{ flex: 1, minWidth: 220 }}
            />
            <NativeSelect
              label="Role"
              name="role"
              size="md"
              data={ROLE_OPTIONS}
              value={role}
              onChange={(event) => setRole(optionOf(INVITE_ROLES, event.currentTarget.value) ?? 'admin')}
              w={160}
            />
            <Button type="submit" size="md" loading={invite.pending}>
              Send invitation
            </Button>
          </Group>
          <ErrorAlert message={formError ?? invite.error} />
        </Stack>
      </form>
      {invitation && <InvitationLinkAlert invitation={invitation} />}
      <PendingInvitations />
    </Stack>
  );
}
