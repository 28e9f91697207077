import type { AppDeps } from '../../deps.ts';
import type { RenderedMail } from './layout.ts';
import { adminInvitation } from './admin-invitation.ts';
import { signInCode } from './sign-in-code.ts';
import { passwordReset } from './password-reset.ts';
import { exhibitorInvitation } from './exhibitor-invitation.ts';
import { votingReminder } from './voting-reminder.ts';
import { nonVoterReminder } from './nonvoter-reminder.ts';
import { nominationReceipt } from './nomination-receipt.ts';
import { votingExtended } from './voting-extended.ts';

/**
 * Why a message was withdrawn unsent, as its outbox row records it (`cancel_reason`):
 * - `complete`: an early reminder to an exhibitor whose lists are full;
 * - `voting_closed`: the event's voting had ended when the reminder came to be sent;
 * - `closed_early`: "Cerrar votación ahora" withdrew it;
 * - `archived`: the event is archived;
 * - `not_member`: the exhibitor left the event (or the event is gone);
 * - `not_invited`: the exhibitor was added without an invitation and has not been invited since;
 * - `too_late`: its moment passed more than 12 hours ago (the server was down): it would arrive late.
 */
export type MailCancelReason =
  | 'complete'
  | 'voting_closed'
  | 'closed_early'
  | 'archived'
  | 'not_member'
  | 'not_invited'
  | 'too_late'
  | 'unwanted';

/** A template's answer for a message that no longer needs sending: withdrawn, never retried. */
export interface SkippedMail {
  skipped: MailCancelReason;
}

/** What the worker knows of the message it renders besides its parameters. */
export interface QueuedMessage {
  /** When the change that caused it queued it. */
  createdAt: Date;
}

/**
 * A message is rendered when the worker sends it, so it can read current data (reminders) and check
 * that it should still go out. A template may answer null or `{ skipped }`: the message no longer
 * needs sending and is withdrawn, with its reason.
 */
export interface MailTemplate<Params> {
  render(
    params: Params,
    deps: Pick<AppDeps, 'db' | 'config' | 'clock'>,
    message: QueuedMessage,
  ): Promise<RenderedMail | SkippedMail | null> | RenderedMail | SkippedMail | null;
}

export const mailTemplates = {
  'admin-invitation': adminInvitation,
  'sign-in-code': signInCode,
  'password-reset': passwordReset,
  'exhibitor-invitation': exhibitorInvitation,
  'voting-reminder': votingReminder,
  'nonvoter-reminder': nonVoterReminder,
  'nomination-receipt': nominationReceipt,
  'voting-extended': votingExtended,
} as const;

export type MailTemplateName = keyof typeof mailTemplates;
export type MailParams<Name extends MailTemplateName> =
  (typeof mailTemplates)[Name] extends MailTemplate<infer P> ? P : never;
