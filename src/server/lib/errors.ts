import { API_ERRORS, type ApiErrorCode, type CatalogueMessage } from '../../shared/errors.ts';
import { MSG, type AnnulledListMessage } from '../../shared/messages.ts';

/**
 * An expected failure: becomes the API's error body. Only a code of the table is accepted, so
 * its status and message cannot drift from what the web app expects; `message` may pick another
 * catalogue entry that names the problem better.
 */
export class AppError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;

  constructor(
    code: ApiErrorCode,
    options: {
      // An annulled list's refusal carries the organisation's reason (lib: annulledListText).
      message?: CatalogueMessage | AnnulledListMessage;
      fields?: Record<string, string>;
    } = {},
  ) {
    super(options.message ?? API_ERRORS[code].message);
    this.code = code;
    this.status = API_ERRORS[code].status;
    this.fields = options.fields;
  }
}

/** Bad input with the message shown on its field (or in the alert when it has none). */
export const badRequest = (message: CatalogueMessage = MSG.invalidInput, field?: string) =>
  new AppError('invalid_input', { message, ...(field ? { fields: { [field]: message } } : {}) });
export const unauthorized = () => new AppError('not_signed_in');
export const forbidden = () => new AppError('forbidden');
export const notFound = (message: CatalogueMessage = MSG.apiNotFound) =>
  new AppError('not_found', { message });
export const tooManyRequests = () => new AppError('rate_limited');
