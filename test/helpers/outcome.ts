import type { LightMyRequestResponse } from 'fastify';
import { UnexpectedAnswer, type ApiFailure } from './client.ts';

/*
 * Reading one outcome of `send` (test/helpers/client.ts) without a cast: a test that sends many
 * calls at once, or one that may go either way, narrows each outcome here and fails saying why.
 */

/**
 * An outcome of one endpoint's call (`Outcome<E>`), or of one of several endpoints' when a test
 * sends them together.
 */
type AnyOutcome<T> =
  | { ok: true; status: number; data: T; response: LightMyRequestResponse }
  | ({ ok: false } & ApiFailure);

/** The parsed answer of an outcome that must be a success. */
export function answered<T>(outcome: AnyOutcome<T>): T {
  if (!outcome.ok) throw new UnexpectedAnswer('should have succeeded', outcome.response);
  return outcome.data;
}

/** The error of an outcome that must be a refusal. */
export function refused<T>(outcome: AnyOutcome<T>): ApiFailure {
  if (outcome.ok) throw new UnexpectedAnswer('should have been refused', outcome.response);
  return outcome;
}

/**
 * A refusal's body as the API sends it, `{ error: { code, message, fields? } }`: for a test that
 * compares the whole error, so that a field the answer should not carry is found too.
 */
export function errorBody(failure: Pick<ApiFailure, 'code' | 'message' | 'fields'>) {
  const { code, message, fields } = failure;
  return { error: { code, message, ...(fields === undefined ? {} : { fields }) } };
}
