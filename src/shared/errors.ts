import { MSG } from './messages.ts';

/** A message of the catalogue: the only text an error may carry. */
export type CatalogueMessage = (typeof MSG)[keyof typeof MSG];

/**
 * Every error code the API answers, with its HTTP status and its usual Spanish message. A code
 * may carry another catalogue message when one names the problem better (a missing event says
 * so rather than "the resource does not exist"); the status never changes with the message.
 */
export const API_ERRORS = {
  invalid_input: { status: 400, message: MSG.invalidInput },
  invalid_code: { status: 400, message: MSG.invalidCode },
  invalid_reset: { status: 400, message: MSG.resetFailed },
  invalid_link: { status: 400, message: MSG.invalidSignInLink },
  sign_in_failed: { status: 400, message: MSG.signInFailed },
  wrong_password: { status: 400, message: MSG.wrongPassword },
  not_signed_in: { status: 401, message: MSG.notSignedIn },
  forbidden: { status: 403, message: MSG.forbidden },
  csrf_rejected: { status: 403, message: MSG.csrfRejected },
  not_found: { status: 404, message: MSG.apiNotFound },
  stale_list: { status: 409, message: MSG.staleList },
  voting_closed: { status: 409, message: MSG.votingClosed },
  duplicate_fiscal_id: { status: 409, message: MSG.duplicateFiscalId },
  nomination_limit: { status: 409, message: MSG.nominationLimit },
  email_in_use: { status: 409, message: MSG.adminEmailInUse },
  email_is_admin: { status: 409, message: MSG.exhibitorEmailIsAdmin },
  already_in_event: { status: 409, message: MSG.exhibitorAlreadyInEvent },
  email_in_other_event: { status: 409, message: MSG.exhibitorInOtherEvent },
  conflict: { status: 409, message: MSG.genericError },
  nothing_to_merge: { status: 409, message: MSG.mergeNothingLeft },
  undo_stale: { status: 409, message: MSG.undoStale },
  list_annulled: { status: 409, message: MSG.listAnnulled },
  list_not_annulled: { status: 409, message: MSG.listNotAnnulled },
  category_name_taken: { status: 409, message: MSG.categoryNameTaken },
  categories_full: { status: 409, message: MSG.categoriesFull },
  category_last_one: { status: 409, message: MSG.categoryLastOne },
  category_shape_frozen: { status: 409, message: MSG.categoryShapeFrozen },
  category_in_use: { status: 409, message: MSG.categoryInUse },
  event_archived: { status: 409, message: MSG.eventArchived },
  event_not_over: { status: 409, message: MSG.eventNotOver },
  event_not_archived: { status: 409, message: MSG.eventNotArchived },
  already_anonymised: { status: 409, message: MSG.eventAlreadyAnonymised },
  self_revoke: { status: 409, message: MSG.adminSelfRevoke },
  last_admin: { status: 409, message: MSG.adminLastActive },
  mfa_required: { status: 403, message: MSG.mfaRequired },
  mfa_invalid_code: { status: 400, message: MSG.mfaInvalidCode },
  mfa_expired: { status: 401, message: MSG.mfaExpired },
  mfa_unavailable: { status: 409, message: MSG.mfaUnavailable },
  body_too_large: { status: 413, message: MSG.invalidInput },
  file_too_large: { status: 413, message: MSG.fileTooLarge },
  unsupported_media_type: { status: 415, message: MSG.invalidInput },
  rate_limited: { status: 429, message: MSG.tooManyRequests },
  code_tries_exhausted: { status: 429, message: MSG.codeTriesExhausted },
  internal_error: { status: 500, message: MSG.genericError },
} as const satisfies Record<string, { status: number; message: CatalogueMessage }>;

export type ApiErrorCode = keyof typeof API_ERRORS;

export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return typeof value === 'string' && Object.hasOwn(API_ERRORS, value);
}

export const API_ERROR_CODES: readonly ApiErrorCode[] =
  Object.keys(API_ERRORS).filter(isApiErrorCode);

/** The error body of every failed API call; `message` is the Spanish text the user sees. */
export interface ApiErrorBody {
  error: {
    code: ApiErrorCode;
    message: string;
    fields?: Record<string, string>;
  };
}

const CATALOGUE: ReadonlySet<string> = new Set(Object.values(MSG));

export function isCatalogueMessage(value: unknown): value is CatalogueMessage {
  return typeof value === 'string' && CATALOGUE.has(value);
}
