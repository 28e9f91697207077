import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, SessionResponse } from '../../shared/schemas/session.ts';
import { api } from './api.ts';

export const sessionQueryKey = ['session'] as const;

/** The signed-in user: undefined while loading, null when nobody is signed in. */
export function useCurrentUser(): { user: CurrentUser | null | undefined; isLoading: boolean } {
  const query = useQuery({
    queryKey: sessionQueryKey,
    queryFn: () => api.get<SessionResponse>('/api/session'),
    staleTime: 60_000,
  });
  return {
    user: query.isPending ? undefined : (query.data?.user ?? null),
    isLoading: query.isPending,
  };
}

/** After signing in or out: reload the session and drop every cached answer of the old one. */
export function useRefreshSession(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    client.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionQueryKey[0] });
    await client.invalidateQueries({ queryKey: sessionQueryKey });
    await client.refetchQueries({ queryKey: sessionQueryKey });
  };
}
