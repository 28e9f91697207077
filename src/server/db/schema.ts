import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { CategoryAddress, CategoryScoring, Role } from '../../shared/constants.ts';
import type { NominableResellers } from '../../shared/registry.ts';

/** Instants are ISO-8601 UTC strings; calendar dates are `YYYY-MM-DD` (same text on both engines). */
type Instant = string;
/** A nullable instant that inserts may leave out. */
type OptionalInstant = ColumnType<Instant | null, Instant | null | undefined, Instant | null>;

export interface AdminsTable {
  id: string;
  email: string;
  /** Null while the invitation is pending. */
  full_name: string | null;
  password_hash: string | null;
  created_at: Instant;
  updated_at: Instant;
  last_signed_in_at: OptionalInstant;
  /** Set when the administrator's access was taken away; a new invitation clears it. */
  revoked_at: OptionalInstant;
  /** The active TOTP secret, encrypted (see lib/secret-box.ts); null without a second factor. */
  mfa_secret: ColumnType<string | null, string | null | undefined, string | null>;
  /** The secret shown during enrolment, encrypted, until a code confirms it. */
  mfa_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  mfa_enabled_at: OptionalInstant;
  /** The last TOTP time step accepted: a code of that step or an earlier one is refused. */
  mfa_last_step: ColumnType<number | null, number | null | undefined, number | null>;
  /** The newest emailed code that lets this administrator enrol a second factor (its hash). */
  mfa_enrol_code_hash: ColumnType<string | null, string | null | undefined, string | null>;
  mfa_enrol_code_expires_at: OptionalInstant;
}

export interface AdminRecoveryCodesTable {
  id: string;
  admin_id: string;
  code_hash: string;
  used_at: Instant | null;
  created_at: Instant;
}

/** A password accepted, the second factor still to come (an httpOnly cookie holds the token). */
export interface MfaChallengesTable {
  id: string;
  admin_id: string;
  token_hash: string;
  expires_at: Instant;
  created_at: Instant;
}

export interface AdminInvitationsTable {
  id: string;
  admin_id: string;
  token_hash: string;
  invited_by: string | null;
  expires_at: Instant;
  used_at: Instant | null;
  created_at: Instant;
}

export interface ExhibitorsTable {
  id: string;
  email: string;
  full_name: string;
  company: string;
  created_at: Instant;
  updated_at: Instant;
  last_signed_in_at: OptionalInstant;
}

export interface EventsTable {
  id: string;
  name: string;
  /** Lower-cased, accent-free name for case-insensitive search on both engines. */
  name_search: string;
  event_date: string;
  vote_deadline: string;
  /** JSON array of the event's automatic reminders (ReminderKind). */
  reminders: ColumnType<string, string | undefined, string>;
  created_by: string | null;
  created_at: Instant;
  updated_at: Instant;
  /** Set while the event is archived: read-only for everyone and hidden from exhibitors. */
  archived_at: OptionalInstant;
  /** When its personal data was replaced by placeholders (never undone). */
  anonymised_at: OptionalInstant;
  /**
   * "Cerrar votación ahora": the exact instant voting ended before the end of its deadline day;
   * cleared when the deadline moves again.
   */
  voting_closed_at: OptionalInstant;
  /**
   * "Datos del nominado": JSON object of each configurable nominee field's requirement
   * (NomineeFieldSettings); a field it does not name is required.
   */
  nominee_fields: ColumnType<string, string | undefined, string>;
  /** The ETag of the event's own logo (its bytes in event_logos); null: the programme's logo. */
  logo_etag: ColumnType<string | null, string | null | undefined, string | null>;
  /** "Hora de cierre": voting is open through this minute (`HH:MM`) of the deadline day. */
  close_time: ColumnType<string, string | undefined, string>;
  /** "Zona horaria" (IANA); null: an event created before events had one follows APP_TIMEZONE. */
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  /** "Apertura de la votación": before this instant the event is a draft; null: open at once. */
  voting_opens_at: OptionalInstant;
  /** "Resellers nominables": `any`, or `registry` (only fiscal ids of the registry). */
  nominable_resellers: ColumnType<
    NominableResellers,
    NominableResellers | undefined,
    NominableResellers
  >;
  /** "Validar CUIT": 1 when an 11-digit fiscal id must carry a valid check digit. */
  validate_cuit: ColumnType<number, number | undefined, number>;
  /** "Ocultar resultados hasta el cierre": 1 when no figure of the results shows while voting is open. */
  seal_results: ColumnType<number, number | undefined, number>;
  /** "Ver resultados ahora": when an administrator opened the sealed results before the close. */
  results_viewed_at: OptionalInstant;
  /** Who did (an administrator's id; null once that account is gone). */
  results_viewed_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Their name as it was then: "Resultados vistos antes del cierre por {nombre}". */
  results_viewed_by_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** The "Motivo" they typed (cleared by anonymising; the history keeps it, scrubbed). */
  results_viewed_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface EventExhibitorsTable {
  event_id: string;
  exhibitor_id: string;
  invited_by: string | null;
  invitation_message_id: string | null;
  created_at: Instant;
  /** The last reminder an administrator sent by hand to this exhibitor in this event. */
  last_reminded_at: OptionalInstant;
  /**
   * The exhibitor's latest sign-in during which they opened this event ("Último ingreso" of its
   * participation); null until they open it. Never copied when an event is duplicated.
   */
  last_signed_in_at: OptionalInstant;
  /**
   * When the event's invitation was first queued for this exhibitor. Until then (added without an
   * invitation) the exhibitor does not see the event and gets no reminder.
   */
  invited_at: OptionalInstant;
  /**
   * While the event is archived: the exhibitor's name, email and company as they were when it was
   * archived, shown instead of the exhibitor's record (`memberField` in lib/member-rows.ts).
   */
  archived_full_name: ColumnType<string | null, string | null | undefined, string | null>;
  archived_email: ColumnType<string | null, string | null | undefined, string | null>;
  archived_company: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface NominationListsTable {
  event_id: string;
  exhibitor_id: string;
  category: CategoryAddress;
  /** Incremented on every write: a save based on an older version is refused (409). */
  version: number;
  updated_at: Instant;
  /**
   * When the organisation annulled the list, and why (both null while it counts): an annulled list
   * keeps its rows, counts for nothing and cannot be changed until it is restored.
   */
  annulled_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  annulled_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface NominationsTable {
  event_id: string;
  exhibitor_id: string;
  category: CategoryAddress;
  list_order: number;
  fiscal_id: string;
  name: string;
  registered_name: string;
  contact_name: string;
  contact_position: string;
  phone: string;
  email: string;
  location: string;
  city: string;
  /** When this fiscal id first entered this list (ranking tie-break). */
  nominated_at: Instant;
  updated_at: Instant;
  /**
   * 1 while its list is annulled (`nomination_lists.annulled_at`), else 0: the totals' triggers
   * leave the row out by this flag alone (migration 0024).
   */
  annulled: ColumnType<number, number | undefined, number>;
}

/**
 * Per fiscal id of one event and category, the sums the ranking orders by. Written only by the
 * triggers of migration 0003 on `nominations` (and rebuildNomineeTotals, the from-scratch repair).
 */
export interface NomineeTotalsTable {
  event_id: string;
  category: CategoryAddress;
  fiscal_id: string;
  /** Sum of its nominations' points (by its category's scoring: pointsOfVote). */
  points: number;
  /** How many nominations at each place. */
  p1: number;
  p2: number;
  p3: number;
  p4: number;
  p5: number;
  p6: number;
  p7: number;
  p8: number;
  p9: number;
  p10: number;
  nominations: number;
  /** min(nominated_at || exhibitor_id): the earliest nomination (ids are 36-character UUIDs). */
  first_key: string;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  role: Role;
  admin_id: string | null;
  exhibitor_id: string | null;
  created_at: Instant;
  last_seen_at: Instant;
  expires_at: Instant;
}

export interface SignInCodesTable {
  id: string;
  exhibitor_id: string;
  code_hash: string;
  expires_at: Instant;
  used_at: Instant | null;
  voided_at: Instant | null;
  created_at: Instant;
  /** Hash of the one-time sign-in link mailed with the code (null for codes issued before it). */
  link_hash: string | null;
}

/** One sign-in counter: `hits` within the window that began at `window_start`. */
export interface AuthThrottleTable {
  scope: string;
  key: string;
  window_start: Instant;
  hits: number;
  /** The next try is refused before this instant (progressive delay). */
  not_before: Instant;
}

export interface PasswordResetTokensTable {
  id: string;
  admin_id: string;
  token_hash: string;
  expires_at: Instant;
  used_at: Instant | null;
  created_at: Instant;
}

export type MailStatus = 'pending' | 'sent' | 'failed' | 'cancelled';

export interface MailOutboxTable {
  id: string;
  /** Template name; the message is rendered when it is sent, so reminders carry current counts. */
  template: string;
  params: string;
  to_address: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: Instant;
  locked_until: Instant | null;
  last_error: string | null;
  subject: string | null;
  sent_at: Instant | null;
  event_id: string | null;
  exhibitor_id: string | null;
  created_at: Instant;
  /** Why a message was withdrawn unsent (`MailCancelReason`), when it was. */
  cancel_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface BrandingTable {
  id: number;
  logo_png: Uint8Array;
  etag: string;
  updated_by: string | null;
  updated_at: Instant;
}

/** "Logo del evento": an event's own logo, shown instead of the programme's to its exhibitors. */
export interface EventLogosTable {
  event_id: string;
  logo_png: Uint8Array;
  updated_by: string | null;
  updated_at: Instant;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Instant;
  actor_role: string;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  event_id: string | null;
  details: string;
}

/**
 * The programme's reseller registry ("Padrón de resellers"), one per installation (migration 0022).
 * Column names follow `nominations`, whose fields an entry fills.
 */
export interface ResellersTable {
  fiscal_id: string;
  name: string;
  registered_name: string;
  location: ColumnType<string, string | undefined, string>;
  city: ColumnType<string, string | undefined, string>;
  contact_name: ColumnType<string, string | undefined, string>;
  contact_position: ColumnType<string, string | undefined, string>;
  phone: ColumnType<string, string | undefined, string>;
  email: ColumnType<string, string | undefined, string>;
  /** Name and company name folded for search: lowercase, no accents, ' word word…'. */
  search_text: string;
  created_at: Instant;
  updated_at: Instant;
  updated_by: string | null;
}

/**
 * An administrator's change to an exhibitor's list, reported to the exhibitor (migration 0025,
 * mail/list-changes.ts). `before` and `after` are JSON arrays of `{ fiscalId, name }` in list order.
 */
export interface ListChangesTable {
  id: Generated<number>;
  event_id: string;
  exhibitor_id: string;
  category: CategoryAddress;
  /** The message that reports it (its parameters carry the same id). */
  batch_id: string;
  before: string;
  after: string;
  admin_id: string | null;
  reason: string;
  changed_at: Instant;
}

/**
 * One category of an event (migration 0028, docs/decisions/0034), in `position` order. `address`
 * names it in routes and in every `category` column; fixed at creation. `name_key` is the name
 * without case or accents, unique in the event.
 */
export interface EventCategoriesTable {
  event_id: string;
  address: CategoryAddress;
  name: string;
  name_key: string;
  description: ColumnType<string, string | undefined, string>;
  /** "Nominaciones por expositor": 1 to 10. */
  nominee_limit: number;
  scoring: CategoryScoring;
  position: number;
  created_at: Instant;
}

/** The registry's settings: one row (id 1), absent until first set. */
export interface RegistrySettingsTable {
  id: number;
  /** "Validar CUIT en el padrón". */
  validate_cuit: number;
  updated_at: Instant;
  updated_by: string | null;
}

/**
 * A session's first opening of an event (migration 0029): the browser it came from, for "Mismo
 * dispositivo" of the "Integridad" tab.
 */
export interface DeviceSignInsTable {
  event_id: string;
  session_id: string;
  exhibitor_id: string;
  /** The device cookie's random id; null when the browser sent none. */
  device_id: string | null;
  ip: string;
  user_agent: string;
  signed_in_at: Instant;
}

export interface Database {
  admins: AdminsTable;
  admin_invitations: AdminInvitationsTable;
  admin_recovery_codes: AdminRecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  exhibitors: ExhibitorsTable;
  events: EventsTable;
  event_exhibitors: EventExhibitorsTable;
  event_categories: EventCategoriesTable;
  nomination_lists: NominationListsTable;
  nominations: NominationsTable;
  nominee_totals: NomineeTotalsTable;
  sessions: SessionsTable;
  sign_in_codes: SignInCodesTable;
  password_reset_tokens: PasswordResetTokensTable;
  auth_throttle: AuthThrottleTable;
  mail_outbox: MailOutboxTable;
  branding: BrandingTable;
  event_logos: EventLogosTable;
  audit_log: AuditLogTable;
  resellers: ResellersTable;
  list_changes: ListChangesTable;
  registry_settings: RegistrySettingsTable;
  device_sign_ins: DeviceSignInsTable;
}

export type Admin = Selectable<AdminsTable>;
export type Exhibitor = Selectable<ExhibitorsTable>;
export type EventRow = Selectable<EventsTable>;
export type Nomination = Selectable<NominationsTable>;
export type EventCategory = Selectable<EventCategoriesTable>;
export type NewNomination = Insertable<NominationsTable>;
export type NomineeTotals = Selectable<NomineeTotalsTable>;
export type MailMessage = Selectable<MailOutboxTable>;
