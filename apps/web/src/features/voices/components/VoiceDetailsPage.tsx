import { Button, Code, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

/** /dashboard/loras/:id, a stub in the spec too: the Voice id and placeholder text. */
export function VoiceDetailsPage() {
  const { id = '' } = useParams();
  return (
    <Page title="Voice details" documentTitle="Voice details">
      <ComingSoon
        title="Details for this Voice are on their way"
        actions={
          <Button component={Link} to={PATHS.dashboard} variant="default" leftSection={<IconArrowLeft size={18} />}>
            Back to My Voices
          </Button>
        }
      >
        <Text span>
          Voice <Code>{id}</Code>. Statistics and settings for each Voice will appear here.
        </Text>
      </ComingSoon>
    </Page>
  );
}
