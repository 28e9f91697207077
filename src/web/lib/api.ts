import { queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { Endpoint, InputOf, ResponseOf } from '../../shared/api/define.ts';
import { isApiErrorCode, type ApiErrorCode } from '../../shared/errors.ts';
import { MSG } from '../../shared/messages.ts';

/** The codes a call can fail with: the API's table, plus the network failing before an answer. */
export type CallErrorCode = ApiErrorCode | 'network_error';

/** A failed API call, carrying the server's Spanish message and per-field messages. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: CallErrorCode;
  readonly fields: Record<string, string>;

  constructor(
    status: number,
    code: CallErrorCode,
    message: string,
    fields: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** The error body's parts, read defensively: a proxy may answer with anything. */
export function apiErrorFrom(status: number, data: unknown): ApiError {
  const error =
    typeof data === 'object' && data !== null && 'error' in data ? data.error : undefined;
  const part = (key: string): unknown =>
    typeof error === 'object' && error !== null && key in error
      ? Object.entries(error).find(([name]) => name === key)?.[1]
      : undefined;
  const code = part('code');
  const message = part('message');
  const fields = part('fields');
  return new ApiError(
    status,
    isApiErrorCode(code) ? code : 'internal_error',
    typeof message === 'string' ? message : MSG.genericError,
    typeof fields === 'object' && fields !== null
      ? Object.fromEntries(
          Object.entries(fields).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        )
      : {},
  );
}

interface RawInput {
  params?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  form?: FormData | undefined;
}

/** The endpoint's URL with its path parameters and query string filled in. */
export function urlOf<E extends Endpoint>(endpoint: E, input: InputOf<E>): string;
export function urlOf(endpoint: Endpoint, input: RawInput): string {
  return rawUrl(endpoint, input);
}

function rawUrl(endpoint: Endpoint, input: RawInput): string {
  const path = endpoint.path.replace(/:([A-Za-z]+)/g, (_match, name: string) =>
    encodeURIComponent(String(input.params?.[name] ?? '')),
  );
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Calls an endpoint of the contract: the input it takes, the answer it gives (checked against its
 * schema), or an ApiError with the server's Spanish message.
 */
export function call<E extends Endpoint>(endpoint: E, input: InputOf<E>): Promise<ResponseOf<E>>;
export async function call(endpoint: Endpoint, input: RawInput): Promise<unknown> {
  const headers: Record<string, string> = { 'x-requested-with': 'premios' };
  let payload: BodyInit | undefined;
  if (input.form) {
    payload = input.form;
  } else if (endpoint.method !== 'GET' && endpoint.method !== 'DELETE') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(input.body ?? {});
  }
  let response: Response;
  try {
    response = await fetch(rawUrl(endpoint, input), {
      method: endpoint.method,
      headers,
      body: payload,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', MSG.genericError);
  }
  if (endpoint.response.kind === 'file' && response.ok) return response.blob();
  const text = await response.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) throw apiErrorFrom(response.status, data);
  if (endpoint.response.kind === 'file') return new Blob([text]);
  return endpoint.response.schema.parse(data);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

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

/** Client errors (a missing record) are answers, not hiccups worth retrying. */
export const retryServerErrors = (failures: number, error: unknown) =>
  failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

/** The Spanish message to show for any thrown value. */
export function errorMessage(error: unknown, fallback: string = MSG.genericError): string {
  return error instanceof ApiError ? error.message : fallback;
}
