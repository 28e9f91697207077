import type { Endpoint } from '../../src/shared/api/define.ts';
import { UnexpectedAnswer, type AnswerOf, type ApiFailure, type Outcome } from './client.ts';

/*
 * Reading one outcome of `send` (test/helpers/client.ts) without a cast: a test that sends many
 * calls at once, or one that may go either way, narrows each outcome here and fails saying why.
 */

/** The parsed answer of an outcome that must be a success. */
export function answered<E extends Endpoint>(outcome: Outcome<E>): AnswerOf<E> {
  if (!outcome.ok) throw new UnexpectedAnswer('should have succeeded', outcome.response);
  return outcome.data;
}

/** The error of an outcome that must be a refusal. */
export function refused<E extends Endpoint>(outcome: Outcome<E>): ApiFailure {
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
