import { z, type ZodType } from 'zod';
import type { ApiErrorCode } from '../errors.ts';

/**
 * Who may call an endpoint: anyone, any signed-in user, or one role. The server checks it before
 * the handler runs; the authorization matrix test walks every endpoint with each kind of caller.
 */
export type Access = 'public' | 'signedIn' | 'admin' | 'exhibitor';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The schema of a part of the request an endpoint does not read: it accepts anything and yields
 * undefined, so a stray query string or an empty body never fails, and the caller passes nothing.
 */
export const none = z.unknown().transform((): undefined => undefined);
export type None = typeof none;

/** A JSON answer, serialised through its schema (fields it does not name never leave). */
export interface JsonResponse<S extends ZodType = ZodType> {
  kind: 'json';
  schema: S;
  status: 200 | 201;
}

/** A binary download (or image) in the given media type. */
export interface FileResponse {
  kind: 'file';
  mediaType: string;
}

export type ResponseSpec = JsonResponse | FileResponse;

export const json = <S extends ZodType>(schema: S, status: 200 | 201 = 200): JsonResponse<S> => ({
  kind: 'json',
  schema,
  status,
});

export const file = (mediaType: string): FileResponse => ({ kind: 'file', mediaType });

/** A multipart upload: one file in the named form field. */
export interface Upload {
  field: string;
  mediaType: string;
}

export interface Endpoint<
  A extends Access = Access,
  P extends ZodType = ZodType,
  Q extends ZodType = ZodType,
  B extends ZodType = ZodType,
  R extends ResponseSpec = ResponseSpec,
> {
  method: HttpMethod;
  /** Fastify-style pattern: `/api/events/:eventId`. */
  path: string;
  access: A;
  summary: string;
  params: P;
  query: Q;
  body: B;
  /** Set on multipart uploads, whose body is not JSON. */
  upload: Upload | undefined;
  response: R;
  /** The codes this endpoint answers besides those of its access and input (see `commonErrors`). */
  errors: readonly ApiErrorCode[];
  /**
   * Whether the endpoint still runs on an archived event. Every other write to an event (any
   * method but GET with `:eventId` in its path) answers 409 "El evento está archivado".
   */
  onArchivedEvent: 'refuse' | 'allow';
  /**
   * Open to an administrator who must still set up the second factor (REQUIRE_ADMIN_MFA): the
   * security page's own endpoints. Every other signed-in route refuses them.
   */
  beforeMfa: boolean;
  /**
   * Its answer carries figures of the event's results (points, places, counts of votes, lists a
   * merge rewrote): refused with 409 "Los resultados están ocultos hasta el cierre de la votación."
   * while the event's results are sealed (docs/decisions/0036).
   */
  showsResults: boolean;
}

interface EndpointSpec<A extends Access, P, Q, B, R extends ResponseSpec> {
  method: HttpMethod;
  path: string;
  access: A;
  summary: string;
  params?: P;
  query?: Q;
  body?: B;
  upload?: Upload;
  response: R;
  errors: readonly ApiErrorCode[];
  onArchivedEvent?: 'allow';
  beforeMfa?: boolean;
  showsResults?: boolean;
}

/** One endpoint of the API, defined once for the server, the web client and the OpenAPI document. */
export function defineEndpoint<
  A extends Access,
  R extends ResponseSpec,
  P extends ZodType = None,
  Q extends ZodType = None,
  B extends ZodType = None,
>(spec: EndpointSpec<A, P, Q, B, R>): Endpoint<A, P, Q, B, R>;
export function defineEndpoint(
  spec: EndpointSpec<Access, ZodType, ZodType, ZodType, ResponseSpec>,
): Endpoint {
  return {
    method: spec.method,
    path: spec.path,
    access: spec.access,
    summary: spec.summary,
    params: spec.params ?? none,
    query: spec.query ?? none,
    body: spec.body ?? none,
    upload: spec.upload,
    response: spec.response,
    errors: spec.errors,
    onArchivedEvent: spec.onArchivedEvent ?? 'refuse',
    beforeMfa: spec.beforeMfa ?? false,
    showsResults: spec.showsResults ?? false,
  };
}

/**
 * Whether the endpoint writes to one event, and so is refused while that event is archived: any
 * method but GET whose path names an event, unless it is one of the archive's own actions.
 */
export const writesToEvent = (endpoint: Endpoint): boolean =>
  endpoint.method !== 'GET' &&
  endpoint.path.includes('/:eventId') &&
  endpoint.onArchivedEvent === 'refuse';

/** Whether a request part is read by the endpoint (false for `none`). */
export const reads = (schema: ZodType): boolean => schema !== none;

/** Codes every endpoint may answer because of its access and its input. */
export function commonErrors(endpoint: Endpoint): ApiErrorCode[] {
  const codes: ApiErrorCode[] = [];
  if (reads(endpoint.params) || reads(endpoint.query) || reads(endpoint.body) || endpoint.upload) {
    codes.push('invalid_input');
  }
  if (endpoint.access !== 'public') codes.push('not_signed_in');
  if (endpoint.access === 'admin' || endpoint.access === 'exhibitor') codes.push('forbidden');
  // REQUIRE_ADMIN_MFA: an administrator without the second factor may only set it up.
  if ((endpoint.access === 'admin' || endpoint.access === 'signedIn') && !endpoint.beforeMfa) {
    codes.push('mfa_required');
  }
  // Any method but GET may carry a body, too big or of the wrong type, and needs the CSRF header.
  if (endpoint.method !== 'GET') {
    codes.push('csrf_rejected', 'body_too_large', 'unsupported_media_type');
  }
  if (writesToEvent(endpoint)) codes.push('event_archived');
  if (endpoint.showsResults) codes.push('results_sealed');
  return codes;
}

/** Every code the endpoint may answer: its own and those of its access and input. */
export function errorsOf(endpoint: Endpoint): ApiErrorCode[] {
  return [...new Set([...commonErrors(endpoint), ...endpoint.errors])];
}

/** What the endpoint answers on success, as the client receives it. */
export type ResponseOf<E extends Endpoint> =
  E['response'] extends JsonResponse<infer S> ? z.output<S> : Blob;

type Part<K extends string, S extends ZodType> =
  unknown extends z.input<S>
    ? { [key in K]?: undefined }
    : undefined extends z.input<S>
      ? { [key in K]?: z.input<S> }
      : // A part whose every field may be left out (a query of defaults) may be left out whole.
        Partial<z.input<S>> extends z.input<S>
        ? { [key in K]?: z.input<S> }
        : { [key in K]: z.input<S> };

/** What a client passes to call the endpoint: only the parts it reads. */
export type InputOf<E extends Endpoint> = Part<'params', E['params']> &
  Part<'query', E['query']> &
  Part<'body', E['body']> & { form?: FormData };
