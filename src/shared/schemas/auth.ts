import { z } from 'zod';
import { ACCESS_CODE_LENGTH, PASSWORD_MIN_LENGTH } from '../constants.ts';
import { MSG } from '../messages.ts';
import { currentUserSchema } from './session.ts';
import { emailField, hasOnlyTextCharacters, requiredText, whenMissing } from './common.ts';

/** argon2 has no practical limit; this only bounds the work one request can ask for. */
const PASSWORD_MAX_LENGTH = 200;

const passwordText = z
  .string({ error: whenMissing(MSG.requiredField) })
  .min(1, MSG.requiredField)
  .max(PASSWORD_MAX_LENGTH, MSG.invalidInput)
  .refine(hasOnlyTextCharacters, MSG.invalidCharacters);

/** An opaque emailed token (invitation `token`, reset `oobCode`). */
const linkToken = z
  .string({ error: whenMissing(MSG.invalidToken) })
  .min(1, MSG.invalidToken)
  .max(200, MSG.invalidToken);

export const signInStartInput = z.object({ email: emailField });
export type SignInStartInput = z.input<typeof signInStartInput>;

/**
 * Where the email step leads: `code` (exhibitor, code sent), `admin` (password step) or `pending`
 * (an administrator who has not completed registration: the link was sent again).
 */
export const signInStartResponse = z.object({ next: z.enum(['code', 'admin', 'pending']) });
export type SignInStartResponse = z.infer<typeof signInStartResponse>;

export const signInCodeInput = z.object({
  email: emailField,
  code: z
    .string({ error: whenMissing(MSG.invalidCode) })
    .regex(new RegExp(`^\\d{${ACCESS_CODE_LENGTH}}$`), MSG.invalidCode),
});
export type SignInCodeInput = z.input<typeof signInCodeInput>;

/** The one-time sign-in link's token, sent by the page the link opens ("acceder"). */
export const signInLinkInput = z.object({
  token: z
    .string({ error: whenMissing(MSG.invalidSignInLink) })
    .min(1, MSG.invalidSignInLink)
    .max(200, MSG.invalidSignInLink),
});
export type SignInLinkInput = z.input<typeof signInLinkInput>;

export const signInPasswordInput = z.object({ email: emailField, password: passwordText });
export type SignInPasswordInput = z.input<typeof signInPasswordInput>;

export const signedInResponse = z.object({ user: currentUserSchema });
export type SignedInResponse = z.infer<typeof signedInResponse>;

export const passwordResetRequestInput = z.object({ email: emailField });
export type PasswordResetRequestInput = z.input<typeof passwordResetRequestInput>;

/**
 * New password twice. Checked in this order, one message at a time: filled in, equal, long
 * enough (the server also refuses common passwords with the same message).
 */
export const passwordResetConfirmInput = z
  .object({
    oobCode: linkToken,
    password: passwordText,
    confirmPassword: passwordText,
    /**
     * "Desactivar también la verificación en dos pasos": the link proves the mailbox, which is what
     * enrolling takes, so it may also remove a second factor someone else enrolled or one lost.
     */
    resetSecondFactor: z.boolean().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.confirmPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: MSG.resetPasswordMismatch,
      });
    } else if (value.password.length < PASSWORD_MIN_LENGTH) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: MSG.resetWeakPassword });
    }
  });
export type PasswordResetConfirmInput = z.input<typeof passwordResetConfirmInput>;

/**
 * "Cambiar contraseña" on /admin/security: the current password, then the new one twice, checked
 * as a reset's (filled in, equal, long enough; the server also refuses common passwords).
 */
export const changePasswordInput = z
  .object({
    currentPassword: passwordText,
    password: passwordText,
    confirmPassword: passwordText,
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.confirmPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: MSG.resetPasswordMismatch,
      });
    } else if (value.password.length < PASSWORD_MIN_LENGTH) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: MSG.resetWeakPassword });
    }
  });
export type ChangePasswordInput = z.input<typeof changePasswordInput>;

export const invitationQuery = z.object({ token: linkToken });
export const invitationResponse = z.object({ email: z.string() });
export type InvitationResponse = z.infer<typeof invitationResponse>;

export const acceptInvitationInput = z
  .object({
    token: linkToken,
    fullName: requiredText(),
    password: passwordText,
    confirmPassword: passwordText,
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.confirmPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: MSG.adminPasswordMismatch,
      });
    } else if (value.password.length < PASSWORD_MIN_LENGTH) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: MSG.weakPassword });
    }
  });
export type AcceptInvitationInput = z.input<typeof acceptInvitationInput>;

export const registerAdminInput = z.object({ email: emailField });
export type RegisterAdminInput = z.input<typeof registerAdminInput>;
export const registerAdminResponse = z.object({ adminId: z.string() });
