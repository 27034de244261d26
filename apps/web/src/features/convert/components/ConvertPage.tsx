import { Button } from '@mantine/core';
import { IconLayoutDashboard, IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

/** /dashboard/convert: rewriting text in a Voice, filled by a later release. */
export function ConvertPage() {
  return (
    <Page title="Convert" description="Rewrite any text in the style of one of your Voices.">
      <ComingSoon
        title="Convert is almost here"
        icon={<IconRefresh size={32} />}
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
        Paste generic text, pick an awake Voice and watch the text come back in your style, chunk by chunk, with an
        optional proofreading pass that checks every chunk against the original.
      </ComingSoon>
    </Page>
  );
}
