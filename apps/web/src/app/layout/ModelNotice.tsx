// Says when OwnVoice runs on a fallback because the default language model could not be
// downloaded: the smaller real model from PyPI (rewrites read well but keep less of the style),
// or the built-in house model (results will be rough). Whoever runs the service learns why and
// what to set.
import { Box, Text } from '@mantine/core';
import { type EngineStatus, engineStatusSchema } from '@ownvoice/shared';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** What the fallback means for the person writing, by where the model came from. */
export function modelNoticeText(status: Pick<EngineStatus, 'source' | 'fallbackReason'>): string | null {
  if (!status.fallbackReason) return null;
  const setting = "The service's operator can set OWNVOICE_BASE_MODEL to a model file.";
  if (status.source === 'house') {
    return `OwnVoice is running on its small built-in model because no real language model could be downloaded, so results will be rough. ${setting}`;
  }
  return `OwnVoice is running on a smaller language model (SmolLM2-135M) because the default could not be downloaded: rewrites read well but keep less of your style and may drift more from the facts. ${setting}`;
}

export function ModelNotice() {
  const { data } = useQuery({
    queryKey: ['public', 'engine'],
    queryFn: ({ signal }) => api.get('/public/engine', { schema: engineStatusSchema, signal }),
    // The status changes once, shortly after the service starts.
    refetchInterval: (query) => (query.state.data?.state === 'starting' ? 10_000 : false),
  });
  const text = data ? modelNoticeText(data) : null;
  if (!text) return null;
  return (
    <Box bg="yellow.1" c="yellow.9" px="md" py={6} role="status" aria-label="Model notice">
      <Text fz="sm" ta="center">
        <IconAlertTriangle size={15} style={{ verticalAlign: '-2px', marginRight: 6 }} aria-hidden="true" />
        {text}
      </Text>
    </Box>
  );
}
