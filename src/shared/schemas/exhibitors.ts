import { z } from 'zod';
import { MSG } from '../messages.ts';
import { emailField, hasOnlyTextCharacters, requiredText } from './common.ts';
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

/** Rows of the exhibitors tab per page (the server pages, searches and sorts). */
export const ROSTER_PAGE_SIZE = 50;

/** The select "Invitación" of the exhibitors tab. */
export const ROSTER_INVITATION_FILTERS = ['all', 'pending', 'sent', 'failed'] as const;
export type RosterInvitationFilter = (typeof ROSTER_INVITATION_FILTERS)[number];
export const ROSTER_INVITATION_FILTER_LABELS: Record<RosterInvitationFilter, string> = {
  all: 'Todas',
  // Not delivered yet: on its way, or never sent ("no enviada": unchecked, or withheld).
  pending: 'Pendiente',
  sent: 'Enviada',
  failed: 'Con error',
};

/** `?page=N&q=…&invitation=…`: one page of the exhibitors matching the search and the filter. */
export const rosterListQuery = z.object({
  page: z
    .string(MSG.invalidInput)
    .regex(/^[1-9]\d{0,5}$/, MSG.invalidInput)
    .transform(Number)
    .default(1),
  /** "Buscar": name, email or company, ignoring case and accents. */
  q: z
    .string(MSG.invalidInput)
    .trim()
    .max(200, MSG.invalidInput)
    .refine(hasOnlyTextCharacters, MSG.invalidCharacters)
    .default(''),
  invitation: z.enum(ROSTER_INVITATION_FILTERS).default('all'),
});
export type RosterListQuery = z.input<typeof rosterListQuery>;

/**
 * One page of an event's exhibitors, by name as Spanish sorts it ("Álvarez" among the A's);
 * `total` counts those matching the search and the filter, `all` the event's exhibitors.
 */
export const eventExhibitorListResponse = z.object({
  exhibitors: z.array(eventExhibitorView),
  total: z.number().int(),
  all: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
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

/** The most exhibitors one bulk action takes: a whole event's roster (an import's maximum). */
export const ROSTER_SELECTION_MAX = 5000;

/** The rows ticked in the exhibitors tab, for "Reenviar invitaciones" and "Eliminar expositores". */
export const exhibitorSelection = z.object({
  exhibitorIds: z
    .array(z.string().regex(/^[0-9a-f-]{36}$/, MSG.invalidInput))
    .min(1, MSG.noExhibitorsSelected)
    .max(ROSTER_SELECTION_MAX, MSG.invalidInput),
});
export type ExhibitorSelection = z.input<typeof exhibitorSelection>;

/**
 * "Reenviar invitaciones": invitations queued, and exhibitors whose address (or whose
 * administrator's hourly allowance) had no room, left as they were.
 */
export const bulkResendResponse = z.object({
  resent: z.number().int(),
  limited: z.number().int(),
});
export type BulkResendResponse = z.output<typeof bulkResendResponse>;

/** What "Eliminar expositores" would remove: exhibitors still in the event, and their nominations. */
export const bulkRemovalImpactResponse = z.object({
  exhibitors: z.number().int(),
  nominations: z.number().int(),
});
export type BulkRemovalImpactResponse = z.output<typeof bulkRemovalImpactResponse>;

/** What "Eliminar expositores" removed (ones removed meanwhile by someone else are not counted). */
export const bulkRemoveResponse = z.object({
  removed: z.number().int(),
  discardedNominations: z.number().int(),
});
export type BulkRemoveResponse = z.output<typeof bulkRemoveResponse>;
