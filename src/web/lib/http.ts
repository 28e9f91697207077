import type { Endpoint, InputOf, ResponseOf } from '../../shared/api/define.ts';
import { isApiErrorCode, type ApiErrorCode } from '../../shared/errors.ts';
import { MSG } from '../../shared/messages.ts';
import type { Prefetched } from './prefetch.ts';

/*
 * Calling the API without TanStack Query: the sign-in screens, which show before it loads, use
 * this module directly; every other screen goes through ./api.ts, which re-exports it.
 */

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

/**
 * The one retry rule of the web's reads (TanStack Query's `retry`, and the screens without it):
 * a failed read is asked again once, unless the server answered a client error (a missing record
 * is an answer, not a hiccup).
 */
export const shouldRetry = (failures: number, error: unknown): boolean =>
  failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

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
 * schema), or an ApiError with the server's Spanish message. `prefetched`: the same GET, already
 * started by the route's loader (./prefetch.ts); its answer is used instead of a second request.
 */
export function call<E extends Endpoint>(
  endpoint: E,
  input: InputOf<E>,
  prefetched?: Prefetched,
): Promise<ResponseOf<E>>;
export async function call(
  endpoint: Endpoint,
  input: RawInput,
  prefetched?: Prefetched,
): Promise<unknown> {
  const url = rawUrl(endpoint, input);
  if (prefetched?.url === url && endpoint.method === 'GET' && endpoint.response.kind !== 'file') {
    let answer: { status: number; text: string };
    try {
      answer = await prefetched.answer;
    } catch {
      throw new ApiError(0, 'network_error', MSG.genericError);
    }
    return parseAnswer(endpoint, answer.status, answer.text);
  }
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
    response = await fetch(url, {
      method: endpoint.method,
      headers,
      body: payload,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', MSG.genericError);
  }
  if (endpoint.response.kind === 'file' && response.ok) return response.blob();
  return parseAnswer(endpoint, response.status, await response.text());
}

function parseAnswer(endpoint: Endpoint, status: number, text: string): unknown {
  const data: unknown = text ? safeJson(text) : undefined;
  if (status < 200 || status > 299) throw apiErrorFrom(status, data);
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

/** The Spanish message to show for any thrown value. */
export function errorMessage(error: unknown, fallback: string = MSG.genericError): string {
  return error instanceof ApiError ? error.message : fallback;
}
