import { sql, type RawBuilder } from 'kysely';
import type { EventExhibitorView, InvitationStatus } from '../../shared/schemas/exhibitors.ts';
import type { MailStatus } from '../db/schema.ts';

/** The exhibitor's fields an event shows. */
export type MemberField = 'full_name' | 'email' | 'company';

/**
 * One of an event member's fields as the event shows it: the copy taken when the event was
 * archived, or else the exhibitor's record. Every read of an event's exhibitors goes through it,
 * so an archived event keeps showing its exhibitors as they were, whatever is edited through an
 * open event since. `member` and `exhibitor` are the query's aliases of `event_exhibitors` and
 * `exhibitors`.
 */
export function memberField(field: MemberField, member = 'm', exhibitor = 'x'): RawBuilder<string> {
  return sql<string>`coalesce(${sql.ref(`${member}.archived_${field}`)}, ${sql.ref(`${exhibitor}.${field}`)})`;
}

/** An exhibitor of an event joined with the message of their latest invitation. */
export interface MemberRow {
  id: string;
  full_name: string;
  email: string;
  company: string;
  invitation_status: MailStatus | null;
  invitation_sent_at: string | null;
  invitation_error?: string | null;
}

export function invitationStatus(status: MailStatus | null): InvitationStatus {
  return status === 'pending' || status === 'sent' || status === 'failed' ? status : 'none';
}

/** The exhibitor as the exhibitors tab shows them, with their invitation's delivery state. */
export function toMemberView(row: MemberRow): EventExhibitorView {
  const status = invitationStatus(row.invitation_status);
  return {
    id: row.id,
    fullName: row.full_name,
    email: row.email,
    company: row.company,
    invitation: { status, sentAt: status === 'sent' ? row.invitation_sent_at : null },
  };
}
