import { Button } from '@mantine/core';
import { IconLayoutDashboard, IconPencil } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

/** /dashboard/create-content: drafting new content in a Voice, filled by a later release. */
export function CreateContentPage() {
  return (
    <Page title="Create" description="Draft new content from a prompt, written in your Voice.">
      <ComingSoon
        title="Create is almost here"
        icon={<IconPencil size={32} />}
        actions={
          <Button
            component={Link}
            to={PATHS.dashboard}
            variant="default"
            leftSection={<IconLayoutDashboard size={18} />}
          >
            Go to Dashboard
          </Button>
        }
      >
        Describe what you need: a blog post, an e-mail, ad copy or a speech. Quick mode writes straight away;
        Interactive mode asks a few questions first. Either way the draft is rewritten in your Voice.
      </ComingSoon>
    </Page>
  );
}
