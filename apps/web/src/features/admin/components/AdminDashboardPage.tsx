// /admin and /admin/dashboard: overview, users and invitations. The overview and the user list read
// the server; invitations arrive with the admin release.
import { Tabs } from '@mantine/core';
import { IconChartBar, IconMailForward, IconUsers } from '@tabler/icons-react';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';
import { SystemOverview } from './SystemOverview';
import { UserList } from './UserList';

export function AdminDashboardPage() {
  return (
    <Page eyebrow="Administration" title="Admin Dashboard" description="Users, credits and invitations.">
      <Tabs defaultValue="overview" keepMounted={false}>
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
          <ComingSoon title="Admin invites" icon={<IconMailForward size={32} />}>
            Invite a new admin or super admin by e-mail. Invitations expire after 24 hours.
          </ComingSoon>
        </Tabs.Panel>
      </Tabs>
    </Page>
  );
}
