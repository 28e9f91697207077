import { z } from 'zod';

export const currentUserSchema = z.object({
  role: z.enum(['admin', 'exh']),
  email: z.string(),
  fullName: z.string(),
  /** REQUIRE_ADMIN_MFA: this administrator must set up the second factor before anything else. */
  mfaSetupRequired: z.literal(true).optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const sessionResponse = z.object({ user: currentUserSchema.nullable() });
export type SessionResponse = z.infer<typeof sessionResponse>;
