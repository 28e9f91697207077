import { z } from 'zod';
import { idParam } from './common.ts';

/** "Estado" of the administrators list: "Activo", "Invitación pendiente", "Revocado". */
export const ADMIN_STATUSES = ['active', 'pending', 'revoked'] as const;
export type AdminStatus = (typeof ADMIN_STATUSES)[number];

export const ADMIN_STATUS_LABEL: Record<AdminStatus, string> = {
  active: 'Activo',
  pending: 'Invitación pendiente',
  revoked: 'Revocado',
};

export const adminRow = z.object({
  id: z.string(),
  fullName: z.string().nullable(),
  email: z.string(),
  status: z.enum(ADMIN_STATUSES),
  lastSignedInAt: z.string().nullable(),
  mfaEnabled: z.boolean(),
  /** The row of whoever asks: nobody revokes their own access. */
  self: z.boolean(),
});
export type AdminRow = z.infer<typeof adminRow>;

export const adminListResponse = z.object({ admins: z.array(adminRow) });

export const adminParams = z.object({ adminId: idParam });
