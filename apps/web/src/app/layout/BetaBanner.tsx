import { Anchor, Box, Text } from '@mantine/core';
import { COMMUNITY_CHAT_URL } from '@ownvoice/shared';
import { IconFlask } from '@tabler/icons-react';

/** The early-beta notice at the very top of every page. */
export function BetaBanner() {
  return (
    <Box component="aside" bg="violet.9" c="white" px="md" py={8} aria-label="Beta notice">
      <Text fz="sm" ta="center" lh={1.45}>
        <IconFlask size={16} style={{ verticalAlign: '-3px', marginRight: 6 }} aria-hidden="true" />
        <Text span fw={700}>
          Early beta:
        </Text>{' '}
        things may break and results may be rough. Please report problems in our{' '}
        <Anchor
          href={COMMUNITY_CHAT_URL}
          target="_blank"
          rel="noopener noreferrer"
          c="white"
          fw={600}
          underline="always"
        >
          community chat
        </Anchor>
        .
      </Text>
    </Box>
  );
}
