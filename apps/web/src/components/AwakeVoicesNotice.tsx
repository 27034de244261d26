// What a page that works with awake Voices (Convert, Create) says when there are none, or when
// the list could not be fetched (with Try again).
import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import { CONVERT_MESSAGES } from '@ownvoice/shared';
import { IconMoonStars, IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '../lib/api-error';
import { PATHS } from '../lib/paths';
import { ErrorAlert } from './ErrorAlert';

export interface AwakeVoicesNoticeProps {
  noAwakeVoices: boolean;
  /** The test id of the no-Voices hint. */
  testId: string;
  /** The list's fetch error, if any, with the page's fallback message. */
  error: unknown;
  fallbackError: string;
  onRetry: () => void;
}

export function AwakeVoicesNotice({ noAwakeVoices, testId, error, fallbackError, onRetry }: AwakeVoicesNoticeProps) {
  return (
    <>
      {noAwakeVoices && (
        <Alert color="gray" icon={<IconMoonStars size={20} />} data-testid={testId}>
          <Text fz="sm">{CONVERT_MESSAGES.noAwakeVoices}</Text>
          <Anchor component={Link} to={PATHS.dashboard} fz="sm">
            Go to the Dashboard
          </Anchor>
        </Alert>
      )}
      {error != null && (
        <Group gap="sm" align="flex-start">
          <ErrorAlert message={errorMessage(error, fallbackError)} />
          <Button variant="default" size="xs" leftSection={<IconRefresh size={16} />} onClick={onRetry}>
            Try again
          </Button>
        </Group>
      )}
    </>
  );
}
