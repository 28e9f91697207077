import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import type { ApiErrorBody } from '../../shared/errors.ts';
import { MSG } from '../../shared/messages.ts';
import { AppError } from '../lib/errors.ts';
import { isTransactionConflict, isUniqueViolation } from '../lib/db-errors.ts';

export function errorBody(
  code: string,
  message: string,
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

/** Framework errors that are the client's fault, with their Spanish text. */
const clientErrors: Record<string, [number, string, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'body_too_large', MSG.invalidInput],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', MSG.invalidInput],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_input', MSG.invalidInput],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_input', MSG.invalidInput],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_input', MSG.invalidInput],
  FST_REQ_FILE_TOO_LARGE: [413, 'file_too_large', MSG.fileTooLarge],
  FST_PARTS_LIMIT: [413, 'body_too_large', MSG.invalidInput],
  FST_FILES_LIMIT: [413, 'body_too_large', MSG.invalidInput],
  FST_FIELDS_LIMIT: [413, 'body_too_large', MSG.invalidInput],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'unsupported_media_type', MSG.invalidInput],
};

/** The one error handler: every failure leaves as `{ error: { code, message, fields } }`. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send(errorBody(error.code, error.message, error.fields));
    }
    if (error instanceof ZodError) {
      return reply.status(400).send(errorBody('invalid_input', MSG.invalidInput, zodFields(error)));
    }
    const known = error.code ? clientErrors[error.code] : undefined;
    if (known) {
      const [status, code, message] = known;
      return reply.status(status).send(errorBody(code, message));
    }
    if (isTransactionConflict(error)) {
      // Two writes to the same rows crossed; this one was undone. The client reloads and retries.
      return reply.status(409).send(errorBody('stale_list', MSG.staleList));
    }
    if (isUniqueViolation(error)) {
      // A concurrent request won a race on a unique row: nothing was changed by this one.
      return reply.status(409).send(errorBody('conflict', MSG.genericError));
    }
    if (error.statusCode === 429) {
      return reply.status(429).send(errorBody('rate_limited', MSG.tooManyRequests));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // A malformed request caught by the framework (bad JSON, bad header…).
      return reply.status(error.statusCode).send(errorBody('invalid_input', MSG.invalidInput));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(errorBody('internal_error', MSG.genericError));
  });
}
