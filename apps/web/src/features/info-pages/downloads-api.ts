// Which offline-app packages this server has (GET /api/public/downloads), for the /download page.
import { type DownloadsResponse, downloadsResponseSchema } from '@ownvoice/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

function fetchDownloads(signal: AbortSignal): Promise<DownloadsResponse> {
  return api.get('/public/downloads', { schema: downloadsResponseSchema, signal, token: null });
}

export function useDownloads() {
  return useQuery({ queryKey: ['public', 'downloads'], queryFn: ({ signal }) => fetchDownloads(signal) });
}

/** "182 MB": sizes of packages, in the decimal megabytes browsers show for downloads. */
