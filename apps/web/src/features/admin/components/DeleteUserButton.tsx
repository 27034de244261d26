// Deleting a user: asked once more in a confirmation, then sent with a second-factor code.
import { ActionIcon, Tooltip } from '@mantine/core';
import { ADMIN_MESSAGES, type User } from '@ownvoice/shared';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useDeleteUser } from '../hooks/use-admin-actions';

export function DeleteUserButton({ user }: { user: User }) {
  const [confirming, setConfirming] = useState(false);
  const { execute, pending } = useDeleteUser(user.id);
  return (
    <>
      <Tooltip label="Delete user" withArrow>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label="Delete user"
          loading={pending}
          onClick={() => setConfirming(true)}
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
      <ConfirmDialog
        opened={confirming}
        title={`Delete ${user.username}?`}
        confirmLabel="Delete"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          execute();
        }}
      >
        {ADMIN_MESSAGES.deleteConfirm}
      </ConfirmDialog>
    </>
  );
}
