// /admin/users/:id/activity: a user's activity log, newest first, filtered by kind and paged.
import { Button, Card, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { ACTIVITY_KINDS, ACTIVITY_PAGE_SIZE, type ActivityKind } from '@ownvoice/shared';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { errorMessage } from '../../../lib/api-error';
import { adminDashboardPath } from '../../../lib/paths';
import { needsMfa, useUserActivities } from '../hooks/use-admin-data';
import { optionOf } from '../select-option';
import { ActivityTable } from './ActivityTable';
import { AdminMfaWarning } from './AdminMfaWarning';
import { AdminPagination } from './AdminPagination';

const KIND_LABELS: Record<ActivityKind, string> = { security: 'Security', admin: 'Admin', billing: 'Billing' };
const KIND_OPTIONS = [
  { value: 'all', label: 'All' },
  ...ACTIVITY_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] })),
];

function ActivityLog({ userId }: { userId: string }) {
  const [kind, setKind] = useState<ActivityKind | null>(null);
  const [page, setPage] = useState(1);
  const { data, error, isPending } = useUserActivities(userId, {
    page,
    limit: ACTIVITY_PAGE_SIZE,
    ...(kind ? { kind } : {}),
  });

  if (needsMfa(error)) return <AdminMfaWarning />;
  const activities = data?.data.activities ?? [];
  return (
    <Stack gap="md">
      <SegmentedControl
        aria-label="Filter by kind"
        data-testid="activity-kind-filter"
        data={KIND_OPTIONS}
        value={kind ?? 'all'}
        onChange={(value) => {
          setKind(optionOf(ACTIVITY_KINDS, value));
          setPage(1);
        }}
        style={{ alignSelf: 'flex-start' }}
      />
      {error ? <ErrorAlert message={errorMessage(error, 'Failed to load data')} /> : null}
      {isPending && <Loader />}
      {data && activities.length === 0 && (
        <Card py="xl" ta="center" data-testid="activity-empty">
          <Text c="dimmed">{kind ? `No ${KIND_LABELS[kind].toLowerCase()} activity yet.` : 'No activity yet.'}</Text>
        </Card>
      )}
      {activities.length > 0 && <ActivityTable activities={activities} />}
      {data && (
        <AdminPagination page={page} pages={data.data.pagination.pages} onChange={setPage} label="Activity pages" />
      )}
    </Stack>
  );
}

export function UserActivityPage() {
  const { id = '' } = useParams();
  return (
    <Page
      eyebrow="Administration"
      title="User activity"
      description="Everything this account did, and what admins did to it, newest first."
      actions={
        <Button
          component={Link}
          to={adminDashboardPath('users')}
          variant="default"
          leftSection={<IconArrowLeft size={18} />}
        >
          Back to Admin Dashboard
        </Button>
      }
    >
      {/* Keyed by user, so another user's log starts on its first page with no filter. */}
      <ActivityLog key={id} userId={id} />
    </Page>
  );
}
