// Says when OwnVoice runs on its small built-in model because the default language model could
// not be downloaded (engine issue): results will be rough, and whoever runs the service
// learns why and what to set.
import { Box, Text } from '@mantine/core';
import { engineStatusSchema } from '@ownvoice/shared';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export function ModelNotice() {
  const { data } = useQuery({
    queryKey: ['public', 'engine'],
    queryFn: ({ signal }) => api.get('/public/engine', { schema: engineStatusSchema, signal }),
    // The status changes once, shortly after the service starts.
    refetchInterval: (query) => (query.state.data?.state === 'starting' ? 10_000 : false),
  });
  if (!data?.fallbackReason) return null;
  return (
    <Box bg="yellow.1" c="yellow.9" px="md" py={6} role="status" aria-label="Model notice">
      <Text fz="sm" ta="center">
        <IconAlertTriangle size={15} style={{ verticalAlign: '-2px', marginRight: 6 }} aria-hidden="true" />
        OwnVoice is running on its small built-in model because the default language model could not be downloaded, so
        results will be rough. The service's operator can set OWNVOICE_BASE_MODEL to a model file.
      </Text>
    </Box>
  );
}
