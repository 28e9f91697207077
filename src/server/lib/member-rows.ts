import type { EventExhibitorView, InvitationStatus } from '../../shared/schemas/exhibitors.ts';
import type { MailStatus } from '../db/schema.ts';

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
