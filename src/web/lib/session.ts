import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '../../shared/schemas/session.ts';
import { call } from './api.ts';
import { currentUserFromCookie } from './current-user.ts';

export { currentUserFromCookie } from './current-user.ts';

/**
 * The session is asked on every screen, the first one included, so its contract (and Zod with it)
 * loads after the first paint rather than with it; its cache key is the one written here rather
 * than derived from the endpoint for the same reason.
 */
export const sessionQueryKey = ['session'] as const;
const loadSessionContract = () => import('../../shared/api/session.ts');

/** The signed-in user: undefined while loading, null when nobody is signed in. */
export function useCurrentUser(): { user: CurrentUser | null | undefined; isLoading: boolean } {
  const query = useQuery({
    queryKey: sessionQueryKey,
    queryFn: async () => call((await loadSessionContract()).getSession, {}),
    // Without the cookie there is no guess: "nobody" would send a signed-in visitor's deep link
    // to the home page before /api/session answers.
    placeholderData: () => {
      const user = currentUserFromCookie();
      return user ? { user } : undefined;
    },
    staleTime: 60_000,
  });
  return {
    user: query.isPending ? undefined : (query.data?.user ?? null),
    isLoading: query.isPending,
  };
}

/** After signing in or out: reload the session and drop every cached answer of the old one. */
export async function refreshSessionOf(client: QueryClient): Promise<void> {
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionQueryKey[0] });
  await client.invalidateQueries({ queryKey: sessionQueryKey });
  await client.refetchQueries({ queryKey: sessionQueryKey });
}

export function useRefreshSession(): () => Promise<void> {
  const client = useQueryClient();
  return () => refreshSessionOf(client);
}
