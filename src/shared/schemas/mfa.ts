import { z } from 'zod';
import { MSG } from '../messages.ts';
import { currentUserSchema } from './session.ts';
import { whenMissing } from './common.ts';

/** A 6-digit TOTP code; spaces a person types between the groups are dropped. */
export const totpCodeField = z
  .string({ error: whenMissing(MSG.requiredField) })
  .max(20, MSG.mfaInvalidCode)
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(1, MSG.requiredField)
      .regex(/^\d{6}$/, MSG.mfaInvalidCode),
  );

/** A one-time recovery code (`xxxxx-xxxxx`), compared without case, spaces or dashes. */
export const recoveryCodeField = z
  .string({ error: whenMissing(MSG.requiredField) })
  .max(40, MSG.mfaInvalidRecoveryCode)
  .transform((value) => value.toLowerCase().replace(/[\s-]+/g, ''))
  .pipe(
    z
      .string()
      .min(1, MSG.requiredField)
      .regex(/^[a-z0-9]{10}$/, MSG.mfaInvalidRecoveryCode),
  );

export const mfaCodeInput = z.object({ code: totpCodeField });

/** The 6-digit code emailed to enrol a second factor; spaces typed between digits are dropped. */
export const enrolCodeField = z
  .string({ error: whenMissing(MSG.requiredField) })
  .max(20, MSG.mfaEnrolCodeInvalid)
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(1, MSG.requiredField)
      .regex(/^\d{6}$/, MSG.mfaEnrolCodeInvalid),
  );

/** "Activar verificación en dos pasos" after the emailed code: proof the mailbox is theirs. */
export const mfaSetupInput = z.object({ emailCode: enrolCodeField });
export type MfaSetupInput = z.input<typeof mfaSetupInput>;
export type MfaCodeInput = z.input<typeof mfaCodeInput>;

export const mfaRecoveryInput = z.object({ recoveryCode: recoveryCodeField });
export type MfaRecoveryInput = z.input<typeof mfaRecoveryInput>;

/**
 * The password step's answer: signed in (`user`; `mfaSetupRequired` when REQUIRE_ADMIN_MFA sends
 * the administrator to set up a second factor first), or `mfa`: the code is still to come.
 */
export const signInPasswordResponse = z.union([
  z.object({ user: currentUserSchema, mfaSetupRequired: z.literal(true).optional() }),
  z.object({ mfa: z.literal(true) }),
]);
export type SignInPasswordResponse = z.infer<typeof signInPasswordResponse>;

export const mfaStatusResponse = z.object({
  enabled: z.boolean(),
  /** REQUIRE_ADMIN_MFA is on. */
  required: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type MfaStatus = z.infer<typeof mfaStatusResponse>;

export const mfaSetupResponse = z.object({
  /** Base32, as authenticator apps take it typed by hand. */
  secret: z.string(),
  otpauthUri: z.string(),
  /** The same URI as a QR code, a PNG data URL. */
  qrCode: z.string(),
});
export type MfaSetup = z.infer<typeof mfaSetupResponse>;

export const mfaRecoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
