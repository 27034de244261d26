import { Button, Code, Text } from '@mantine/core';
import { IconArrowLeft, IconHistory } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

/** /admin/users/:id/activity: a user's actions with details and dates. */
export function UserActivityPage() {
  const { id = '' } = useParams();
  return (
    <Page eyebrow="Administration" title="User activity">
      <ComingSoon
        title="Activity log"
        icon={<IconHistory size={32} />}
        actions={
          <Button
            component={Link}
            to={PATHS.adminDashboard}
            variant="default"
            leftSection={<IconArrowLeft size={18} />}
          >
            Back to Admin Dashboard
          </Button>
        }
      >
        <Text span>
          Every action of user <Code>{id}</Code>, with its details and date, will be listed here.
        </Text>
      </ComingSoon>
    </Page>
  );
}
