import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import { API_ERRORS, type ApiErrorBody, type ApiErrorCode } from '../../shared/errors.ts';
import { MSG } from '../../shared/messages.ts';
import { AppError } from '../lib/errors.ts';
import { isTransactionConflict, isUniqueViolation } from '../lib/db-errors.ts';

export function errorBody(
  code: ApiErrorCode,
  message: string = API_ERRORS[code].message,
  fields?: Record<string, string>,
): ApiErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/** Field name → first message, from a Zod error. */
export function zodFields(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Framework errors that are the client's fault, by the framework's code. */
const clientErrors: Record<string, ApiErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_input',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_input',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_input',
  FST_REQ_FILE_TOO_LARGE: 'file_too_large',
  FST_PARTS_LIMIT: 'body_too_large',
  FST_FILES_LIMIT: 'body_too_large',
  FST_FIELDS_LIMIT: 'body_too_large',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupported_media_type',
};

/** The error code each failed request was answered with, for the metrics (http/metrics.ts). */
const answeredCodes = new WeakMap<FastifyReply, ApiErrorCode>();

/** The code of the error body the error handler sent, if it answered this reply. */
export function answeredErrorCode(reply: FastifyReply): ApiErrorCode | undefined {
  return answeredCodes.get(reply);
}

/** The one error handler: every failure leaves as `{ error: { code, message, fields } }`. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    const answer = (status: number, body: ApiErrorBody) => {
      answeredCodes.set(reply, body.error.code);
      return reply.status(status).send(body);
    };
    if (error instanceof AppError) {
      return answer(error.status, errorBody(error.code, error.message, error.fields));
    }
    if (error instanceof ZodError) {
      return answer(400, errorBody('invalid_input', MSG.invalidInput, zodFields(error)));
    }
    const known = error.code ? clientErrors[error.code] : undefined;
    if (known) return answer(API_ERRORS[known].status, errorBody(known));
    if (isTransactionConflict(error)) {
      // Two writes to the same rows crossed; this one was undone. The client reloads and retries.
      return answer(409, errorBody('stale_list'));
    }
    if (isUniqueViolation(error)) {
      // A concurrent request won a race on a unique row: nothing was changed by this one.
      return answer(409, errorBody('conflict'));
    }
    if (error.statusCode === 429) {
      return answer(429, errorBody('rate_limited'));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // A malformed request caught by the framework (bad JSON, bad header…).
      return answer(error.statusCode, errorBody('invalid_input'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return answer(500, errorBody('internal_error'));
  });
}
