// /admin and /admin/dashboard: the three admin areas of spec §2, filled by a later release.
import { Tabs } from '@mantine/core';
import { IconChartBar, IconMailForward, IconUsers } from '@tabler/icons-react';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';

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
          <ComingSoon title="System overview" icon={<IconChartBar size={32} />}>
            User counts (admins, regular, active in the last 30 days, with MFA) and credits in circulation.
          </ComingSoon>
        </Tabs.Panel>
        <Tabs.Panel value="users">
          <ComingSoon title="User management" icon={<IconUsers size={32} />}>
            Search users by username or e-mail, filter by role, change roles, grant credits, edit limits and review each
            user's activity.
          </ComingSoon>
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
