import { queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { Endpoint, InputOf, ResponseOf } from '../../shared/api/define.ts';
import { ApiError, call } from './http.ts';

export {
  ApiError,
  apiErrorFrom,
  call,
  errorMessage,
  shouldRetry,
  urlOf,
  type CallErrorCode,
} from './http.ts';

/**
 * The cache key of an endpoint's answer. Its prefix `[method, path]` names every answer of the
 * endpoint, and `[method, path, { eventId }]` those of one event (keys match by prefix, objects
 * by the properties given).
 */
export function endpointKey(
  endpoint: Endpoint,
  input: { params?: unknown; query?: unknown } = {},
): QueryKey {
  return [endpoint.method, endpoint.path, input.params ?? {}, input.query ?? {}];
}

/** Query options for a GET endpoint: key and fetch derived from the contract. */
export function endpointQuery<E extends Endpoint>(endpoint: E, input: InputOf<E>) {
  return queryOptions({
    queryKey: endpointKey(endpoint, input),
    queryFn: () => call(endpoint, input),
  });
}

/**
 * A write through the contract. `invalidates` names the answers the write makes stale; each
 * domain declares it once beside its queries. The endpoint may be given as a loader, for a screen
 * that must show before the contract (and Zod with it) has loaded.
 */
export function useEndpointMutation<E extends Endpoint>(
  endpoint: E | (() => Promise<E>),
  options: { invalidates?: (input: InputOf<E>, data: ResponseOf<E>) => QueryKey[] } = {},
) {
  const client = useQueryClient();
  return useMutation<ResponseOf<E>, ApiError | Error, InputOf<E>>({
    mutationFn: async (input) =>
      call(typeof endpoint === 'function' ? await endpoint() : endpoint, input),
    onSuccess: async (data, input) => {
      const stale = options.invalidates?.(input, data) ?? [];
      await Promise.all(stale.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}
