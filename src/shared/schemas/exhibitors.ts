import { z } from 'zod';
import { emailField, requiredText } from './common.ts';
import { ROSTER_ROW_STATUSES } from '../roster-messages.ts';

/** "Nuevo votante": the three required fields. */
export const exhibitorInput = z.object({
  fullName: requiredText(200),
  email: emailField,
  company: requiredText(200),
});
export type ExhibitorInput = z.input<typeof exhibitorInput>;
export type ExhibitorFields = z.output<typeof exhibitorInput>;

/** Delivery state of an exhibitor's latest invitation email ('none': never queued or withdrawn). */
export const INVITATION_STATUSES = ['pending', 'sent', 'failed', 'none'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const INVITATION_STATUS_LABELS: Record<InvitationStatus, string> = {
  pending: 'pendiente',
  sent: 'enviada',
  failed: 'error',
  none: 'no enviada',
};

export const eventExhibitorView = z.object({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  company: z.string(),
  invitation: z.object({
    status: z.enum(INVITATION_STATUSES),
    /** When it was sent, or null. */
    sentAt: z.string().nullable(),
  }),
});
export type EventExhibitorView = z.output<typeof eventExhibitorView>;

/**
 * The answer to adding or editing an exhibitor: the row and, only when the invitation it would have
 * queued was withheld because the address already had its invitations for the hour,
 * `invitationWithheld: true` (the change is stored; the invitation shows "no enviada" and can be
 * sent again later).
 */
export const exhibitorSaveResponse = eventExhibitorView.extend({
  invitationWithheld: z.literal(true).optional(),
});
export type ExhibitorSaveResponse = z.output<typeof exhibitorSaveResponse>;

export const eventExhibitorListResponse = z.object({ exhibitors: z.array(eventExhibitorView) });
export type EventExhibitorListResponse = z.output<typeof eventExhibitorListResponse>;

/** Exhibitors added without an invitation, still waiting for it ("Enviar invitaciones"). */
export const pendingInvitationsResponse = z.object({ pending: z.number().int() });
export type PendingInvitationsResponse = z.output<typeof pendingInvitationsResponse>;

/** Invitations queued, and exhibitors left waiting because their address reached its limit. */
export const sentPendingInvitationsResponse = z.object({
  sent: z.number().int(),
  limited: z.number().int(),
});
export type SentPendingInvitationsResponse = z.output<typeof sentPendingInvitationsResponse>;

/** What removing an exhibitor from an event discards (asked before confirming). */
export const removalImpactResponse = z.object({ nominations: z.number().int() });
export type RemovalImpactResponse = z.output<typeof removalImpactResponse>;

/** One row of an import file's preview, with its "Estado". */
export const rosterPreviewRow = z.object({
  row: z.number().int(),
  fullName: z.string(),
  email: z.string(),
  company: z.string(),
  status: z.enum(ROSTER_ROW_STATUSES),
  /** For "Nombre inválido" and "Empresa inválida": the exhibitor form's message for the value. */
  message: z.string().optional(),
});

const rosterSummary = z.object({
  nuevos: z.number().int(),
  yaEstaban: z.number().int(),
  conErrores: z.number().int(),
});

export const rosterPreviewResponse = z.object({
  rows: z.array(rosterPreviewRow),
  summary: rosterSummary,
  /** The headers, as typed, of the file's columns the import does not read. */
  ignoredColumns: z.array(z.string()),
});
export type RosterPreviewResponse = z.output<typeof rosterPreviewResponse>;

export const rosterImportQuery = z.object({
  /** "Enviar invitaciones": on unless the administrator unchecks it. */
  sendInvitations: z.enum(['true', 'false']).default('true'),
});

export const rosterImportResponse = z.object({
  added: z.number().int(),
  /**
   * Only when some: rows added without their invitation, their address having had its
   * invitations for the hour.
   */
  invitationsWithheld: z.number().int().positive().optional(),
  summary: rosterSummary,
  /** Every row not added ("Ya está en el evento" and the errors), as the import classified it. */
  skipped: z.array(rosterPreviewRow),
});
export type RosterImportResponse = z.output<typeof rosterImportResponse>;
