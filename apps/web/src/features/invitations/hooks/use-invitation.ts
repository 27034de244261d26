// The invitation behind a link, read fresh on every visit (it may have been used meanwhile).
import { useQuery } from '@tanstack/react-query';
import { fetchInvitation } from '../api';

export const useInvitation = (token: string) =>
  useQuery({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) => fetchInvitation(token, signal),
    staleTime: 0,
  });
