import type { AppDeps } from '../../deps.ts';
import type { RenderedMail } from './layout.ts';
import { adminInvitation } from './admin-invitation.ts';
import { signInCode } from './sign-in-code.ts';
import { passwordReset } from './password-reset.ts';
import { exhibitorInvitation } from './exhibitor-invitation.ts';
import { votingReminder } from './voting-reminder.ts';
import { nonVoterReminder } from './nonvoter-reminder.ts';
import { nominationReceipt } from './nomination-receipt.ts';
import { mfaEnrolCode } from './mfa-enrol-code.ts';

/**
 * A message is rendered when the worker sends it, so it can read current data (reminders). A
 * template may answer null: the message no longer needs sending (an exhibitor who completed their
 * lists before an early reminder) and is withdrawn.
 */
export interface MailTemplate<Params> {
  render(
    params: Params,
    deps: Pick<AppDeps, 'db' | 'config'>,
  ): Promise<RenderedMail | null> | RenderedMail | null;
}

export const mailTemplates = {
  'admin-invitation': adminInvitation,
  'sign-in-code': signInCode,
  'password-reset': passwordReset,
  'exhibitor-invitation': exhibitorInvitation,
  'voting-reminder': votingReminder,
  'nonvoter-reminder': nonVoterReminder,
  'nomination-receipt': nominationReceipt,
  'mfa-enrol-code': mfaEnrolCode,
} as const;

export type MailTemplateName = keyof typeof mailTemplates;
export type MailParams<Name extends MailTemplateName> =
  (typeof mailTemplates)[Name] extends MailTemplate<infer P> ? P : never;
