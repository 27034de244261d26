// /admin and /admin/dashboard: overview, users and invitations. The open tab is kept in ?tab= so
// a link (or the activity page's back link) lands on it; the sensitive actions share one
// second-factor prompt (MfaProvider), whose right code opens a few minutes without prompts.
import { Tabs } from '@mantine/core';
import { IconChartBar, IconMailForward, IconUsers } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { Page } from '../../../components/Page';
import { ADMIN_TABS, type AdminTab } from '../../../lib/paths';
import { ConfirmationStatus } from './ConfirmationStatus';
import { InvitesTab } from './InvitesTab';
import { MfaProvider } from './MfaProvider';
import { SystemOverview } from './SystemOverview';
import { UserList } from './UserList';

const tabOf = (value: string | null): AdminTab => ADMIN_TABS.find((tab) => tab === value) ?? 'overview';

export function AdminDashboardPage() {
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const select = (value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', tabOf(value));
        return next;
      },
      { replace: true },
    );

  return (
    <Page eyebrow="Administration" title="Admin Dashboard" description="Users, credits and invitations.">
      <MfaProvider>
        <ConfirmationStatus />
        <Tabs value={tab} onChange={select} keepMounted={false}>
          <Tabs.List mb="lg">
            <Tabs.Tab value="overview" leftSection={<IconChartBar size={16} />}>
              System Overview
            </Tabs.Tab>
            <Tabs.Tab value="users" leftSection={<IconUsers size={16} />}>
              User Management
            </Tabs.Tab>
            <Tabs.Tab value="invites" leftSection={<IconMailForward size={16} />}>
              Admin Invites
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="overview">
            <SystemOverview />
          </Tabs.Panel>
          <Tabs.Panel value="users">
            <UserList />
          </Tabs.Panel>
          <Tabs.Panel value="invites">
            <InvitesTab />
          </Tabs.Panel>
        </Tabs>
      </MfaProvider>
    </Page>
  );
}
