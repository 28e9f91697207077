import type { MailTemplate } from './define.ts';
import { adminInvitation } from './admin-invitation.ts';
import { signInCode } from './sign-in-code.ts';
import { passwordReset } from './password-reset.ts';
import { exhibitorInvitation } from './exhibitor-invitation.ts';
import { votingReminder } from './voting-reminder.ts';
import { nonVoterReminder } from './nonvoter-reminder.ts';
import { nominationReceipt } from './nomination-receipt.ts';
import { votingExtended } from './voting-extended.ts';
import { mfaEnrolCode } from './mfa-enrol-code.ts';
import { listChange, LIST_CHANGE_TEMPLATE } from './list-change.ts';

export const mailTemplates = {
  'admin-invitation': adminInvitation,
  'sign-in-code': signInCode,
  'password-reset': passwordReset,
  'exhibitor-invitation': exhibitorInvitation,
  'voting-reminder': votingReminder,
  'nonvoter-reminder': nonVoterReminder,
  'nomination-receipt': nominationReceipt,
  'voting-extended': votingExtended,
  'mfa-enrol-code': mfaEnrolCode,
  [LIST_CHANGE_TEMPLATE]: listChange,
} as const;

export type { MailCancelReason, MailTemplate, QueuedMessage, SkippedMail } from './define.ts';

export const isMailTemplateName = (name: string): name is MailTemplateName =>
  Object.hasOwn(mailTemplates, name);

export type MailTemplateName = keyof typeof mailTemplates;
export type MailParams<Name extends MailTemplateName> =
  (typeof mailTemplates)[Name] extends MailTemplate<infer P> ? P : never;
