import { MSG } from '../../shared/messages.ts';

/** An expected failure: becomes the API's error body, with its status. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;

  constructor(status: number, code: string, message: string, fields?: Record<string, string>) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

export const badRequest = (message: string = MSG.invalidInput, fields?: Record<string, string>) =>
  new AppError(400, 'invalid_input', message, fields);
export const unauthorized = () => new AppError(401, 'not_signed_in', MSG.notSignedIn);
export const forbidden = () => new AppError(403, 'forbidden', MSG.forbidden);
export const notFound = (message: string = MSG.apiNotFound) =>
  new AppError(404, 'not_found', message);
export const conflict = (code: string, message: string, fields?: Record<string, string>) =>
  new AppError(409, code, message, fields);
export const tooManyRequests = () => new AppError(429, 'rate_limited', MSG.tooManyRequests);
