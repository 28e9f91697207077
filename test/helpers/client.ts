import type { LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import type { Endpoint, InputOf, JsonResponse } from '../../src/shared/api/define.ts';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { isApiErrorCode, type ApiErrorCode } from '../../src/shared/errors.ts';
import { urlOf } from '../../src/web/lib/http.ts';
import type { Session, TestApp } from './app.ts';
import { multipart } from './multipart.ts';

/*
 * The API as the tests call it: through the endpoint definitions of src/shared/api, as the web
 * does. Path parameters, query and body are typed by the contract, and the answer is parsed by
 * the endpoint's response schema, so a change to the contract is found by the compiler.
 * Literal URLs stay only where a test sends what the contract forbids.
 */

/** What a test reads from a successful call: the parsed JSON, or the bytes of a download. */
export type AnswerOf<E extends Endpoint> =
  E['response'] extends JsonResponse<infer S> ? z.output<S> : Buffer;

/** The error body every failed call answers (src/shared/errors.ts), parsed, never cast. */
const apiErrorBody = z.object({
  error: z.object({
    code: z.custom<ApiErrorCode>(isApiErrorCode),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

/** A refused call: its HTTP status and the API's error, with its Spanish message. */
export interface ApiFailure {
  status: number;
  code: ApiErrorCode;
  message: string;
  fields: Record<string, string> | undefined;
  response: LightMyRequestResponse;
}

/** One call's outcome: the parsed answer or the typed error, and the raw response for headers. */
export type Outcome<E extends Endpoint> =
  | { ok: true; status: number; data: AnswerOf<E>; response: LightMyRequestResponse }
  | ({ ok: false } & ApiFailure);

/** How a test sends a call: as whom (default: the client's session), extra headers, a file. */
export interface CallOptions {
  /** The session to call as; null calls without one. */
  as?: Session | null;
  headers?: Record<string, string>;
  /** For an upload endpoint: the file in its form field. */
  file?: { filename: string; data: Buffer; type?: string };
  /** The client's address, for the per-client limits (default: light-my-request's 127.0.0.1). */
  remoteAddress?: string;
}

/**
 * The `error` object of a refusal as it travelled, `fields` only when the API sent them: for
 * comparing a refusal whole with toEqual, so that an unexpected field list also fails.
 */
export function errorOf(failure: ApiFailure): {
  code: ApiErrorCode;
  message: string;
  fields?: Record<string, string>;
} {
  const { code, message, fields } = failure;
  return fields === undefined ? { code, message } : { code, message, fields };
}

/**
 * An outcome of one endpoint's call (`Outcome<E>`), or of one of several endpoints' when a test
 * sends them together.
 */
type AnyOutcome<T> =
  | { ok: true; status: number; data: T; response: LightMyRequestResponse }
  | ({ ok: false } & ApiFailure);

/** The success of an outcome the test expects to succeed, with its response; throws otherwise. */
export function answered<T>(outcome: AnyOutcome<T>): {
  ok: true;
  status: number;
  data: T;
  response: LightMyRequestResponse;
} {
  if (!outcome.ok) throw new UnexpectedAnswer('the call should succeed', outcome.response);
  return outcome;
}

/** The refusal of an outcome the test expects to be refused; throws on a success. */
export function refused<T>(outcome: AnyOutcome<T>): ApiFailure {
  if (outcome.ok) throw new UnexpectedAnswer('the call should be refused', outcome.response);
  const { ok: _ok, ...failure } = outcome;
  return failure;
}

/**
 * The refusal in a response to a request sent as is (what the contract forbids), parsed like the
 * client's own; a body that is not the API's error throws.
 */
export function failureOf(response: LightMyRequestResponse): ApiFailure {
  const parsed = apiErrorBody.safeParse(safeJson(response.body));
  if (!parsed.success) throw new UnexpectedAnswer('not an API error body', response);
  const { code, message, fields } = parsed.data.error;
  return { status: response.statusCode, code, message, fields, response };
}

/** The session cookie a response set (a sign-in's), or undefined when it set none. */
export function sessionSetBy(response: LightMyRequestResponse): Session | undefined {
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  return cookie ? { token: cookie.value, cookie: `${SESSION_COOKIE}=${cookie.value}` } : undefined;
}

/** Thrown by `call` when the API refuses, and by `fail` when it does not. */
export class UnexpectedAnswer extends Error {
  readonly response: LightMyRequestResponse;

  constructor(message: string, response: LightMyRequestResponse) {
    super(`${message}: ${response.statusCode} ${response.body.slice(0, 500)}`);
    this.response = response;
  }
}

export interface TestClient {
  /** Sends the call and returns either outcome. */
  send<E extends Endpoint>(
    endpoint: E,
    input: InputOf<E>,
    options?: CallOptions,
  ): Promise<Outcome<E>>;
  /**
   * The parsed answer of a call that must succeed with the endpoint's own status (200 or 201);
   * any other answer throws with the response's body, so the test fails saying why.
   */
  call<E extends Endpoint>(
    endpoint: E,
    input: InputOf<E>,
    options?: CallOptions,
  ): Promise<AnswerOf<E>>;
  /** The error of a call that must be refused; a success throws. */
  fail<E extends Endpoint>(
    endpoint: E,
    input: InputOf<E>,
    options?: CallOptions,
  ): Promise<ApiFailure>;
  /** The same client calling as another session (null: signed out). */
  as(session: Session | null): TestClient;
}

/** A typed client over the test app, calling as `session` unless a call says otherwise. */
export function testClient(
  t: Pick<TestApp, 'request'>,
  session: Session | null = null,
): TestClient {
  async function send<E extends Endpoint>(
    endpoint: E,
    input: InputOf<E>,
    options: CallOptions = {},
  ): Promise<Outcome<E>> {
    const caller = options.as === undefined ? session : options.as;
    const upload = options.file
      ? multipart([
          {
            name: endpoint.upload?.field ?? 'file',
            filename: options.file.filename,
            ...(options.file.type ? { type: options.file.type } : {}),
            data: options.file.data,
          },
        ])
      : undefined;
    const body: unknown = input.body;
    // A JSON body is an object (or array); an endpoint without one sends nothing.
    const json = typeof body === 'object' && body !== null ? body : undefined;
    const response = await t.request({
      method: endpoint.method,
      url: urlOf(endpoint, input),
      ...(caller ? { as: caller } : {}),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      ...(upload
        ? { payload: upload.payload, headers: { ...upload.headers, ...options.headers } }
        : {
            ...(json === undefined ? {} : { payload: json }),
            ...(options.headers ? { headers: options.headers } : {}),
          }),
    });
    const status = response.statusCode;
    if (status >= 200 && status <= 299) {
      return { ok: true, status, data: answerOf(endpoint, response), response };
    }
    const parsed = apiErrorBody.safeParse(safeJson(response.body));
    if (!parsed.success) throw new UnexpectedAnswer('not an API error body', response);
    const { code, message, fields } = parsed.data.error;
    return { ok: false, status, code, message, fields, response };
  }

  return {
    send,
    async call(endpoint, input, options) {
      const outcome = await send(endpoint, input, options);
      const expected = endpoint.response.kind === 'json' ? endpoint.response.status : 200;
      if (!outcome.ok || outcome.status !== expected) {
        throw new UnexpectedAnswer(
          `${endpoint.method} ${endpoint.path} should answer ${expected}`,
          outcome.response,
        );
      }
      return outcome.data;
    },
    async fail(endpoint, input, options) {
      const outcome = await send(endpoint, input, options);
      if (outcome.ok) {
        throw new UnexpectedAnswer(
          `${endpoint.method} ${endpoint.path} should fail`,
          outcome.response,
        );
      }
      const { ok: _ok, ...failure } = outcome;
      return failure;
    },
    as: (other) => testClient(t, other),
  };
}

function answerOf<E extends Endpoint>(endpoint: E, response: LightMyRequestResponse): AnswerOf<E>;
function answerOf(endpoint: Endpoint, response: LightMyRequestResponse): unknown {
  if (endpoint.response.kind === 'file') return response.rawPayload;
  const parsed = endpoint.response.schema.safeParse(safeJson(response.body));
  if (!parsed.success) {
    throw new UnexpectedAnswer(
      `${endpoint.method} ${endpoint.path} answered outside its schema (${parsed.error.message})`,
      response,
    );
  }
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
