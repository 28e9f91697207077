import type { RosterSummary } from '../../../shared/roster-messages.ts';
import type { Tx } from '../../db/transact.ts';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { ExhibitorsTable } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { chunks } from '../../lib/chunks.ts';
import { newId } from '../../lib/crypto.ts';
import { badRequest } from '../../lib/errors.ts';
import { getEventOr404, inEventTransaction } from '../../lib/guards.ts';
import { iso } from '../../lib/time.ts';
import { queueInvitations } from '../../mail/invitation-queue.ts';
import { scheduleReminders } from '../../mail/reminders.ts';
import {
  classifyRosterRows,
  readRosterFile,
  type ClassifiedRosterRow,
  type RosterFile,
  type RosterPreview,
  type RosterRow,
} from './roster-file.ts';
import type { EventRef, RosterChange } from './service.ts';

async function read(file: RosterFile): Promise<{ rows: RosterRow[]; ignoredColumns: string[] }> {
  const result = await readRosterFile(file);
  if (!result.ok) throw badRequest(result.error.message, 'file');
  return result;
}

/** Classifies the file's rows against the event's exhibitors and the administrators, as stored now. */
async function classify(db: Db, eventId: string, rows: RosterRow[]): Promise<RosterPreview> {
  const [members, admins] = await Promise.all([
    db
      .selectFrom('event_exhibitors as m')
      .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
      .select('x.email')
      .where('m.event_id', '=', eventId)
      .execute(),
    db.selectFrom('admins').select('email').execute(),
  ]);
  return classifyRosterRows(rows, {
    eventEmails: new Set(members.map((m) => m.email)),
    adminEmails: new Set(admins.map((a) => a.email)),
  });
}

/**
 * What the import dialog shows before anything is stored: every row with its "Estado", and the
 * columns of the file it will not read.
 */
export async function previewRoster(
  deps: AppDeps,
  { eventId, file }: EventRef & { file: RosterFile },
): Promise<RosterPreview & { ignoredColumns: string[] }> {
  await getEventOr404(deps.db, eventId);
  const { rows, ignoredColumns } = await read(file);
  return { ...(await classify(deps.db, eventId, rows)), ignoredColumns };
}

export interface RosterImportResult {
  added: number;
  /** Only when some: rows added without their invitation (the address had its invitations for the hour). */
  invitationsWithheld?: number;
  summary: RosterSummary;
  /** Every row not added, with its "Estado" as the import found it ("Descargar filas omitidas"). */
  skipped: ClassifiedRosterRow[];
}

export interface RosterImport extends RosterChange {
  file: RosterFile;
  /** "Enviar invitaciones" of the import dialog. */
  sendInvitations: boolean;
}

/**
 * Adds every "Nuevo" row of the file to the event in one transaction, each with its deadline-day
 * reminder and, when asked, its invitation (withheld for an address that had its invitations for
 * the hour, `queueInvitations`); rows with an error are skipped, never half-stored. The
 * rows are classified again inside the transaction, so an address added since the preview (by
 * another administrator, or by a second click) is counted as already there, never added twice.
 */
export async function importRoster(
  deps: AppDeps,
  { admin, eventId, file, sendInvitations }: RosterImport,
): Promise<RosterImportResult> {
  const { rows } = await read(file);
  return inEventTransaction(deps, eventId, async (tx, event, now) => {
    const preview = await classify(tx, eventId, rows);
    const fresh = preview.rows.filter(
      (row): row is ClassifiedRosterRow & { normalizedEmail: string } => row.status === 'new',
    );
    const exhibitors = await exhibitorsFor(tx, fresh, iso(now));
    const invitationIds = sendInvitations
      ? await queueInvitations(tx, now, admin, event, exhibitors)
      : [];
    const invitationsWithheld = sendInvitations
      ? invitationIds.filter((id) => id === null).length
      : 0;
    const memberships = exhibitors.map((exhibitor, i) => ({
      event_id: eventId,
      exhibitor_id: exhibitor.id,
      invited_by: admin.adminId,
      invitation_message_id: invitationIds[i] ?? null,
      created_at: iso(now),
      invited_at: invitationIds[i] ? iso(now) : null,
    }));
    for (const part of chunks(memberships)) {
      await tx.insertInto('event_exhibitors').values(part).execute();
    }
    // Exhibitors added without an invitation (unchecked, or withheld by the limit) get no reminder
    // until "Enviar invitaciones pendientes".
    const invited = exhibitors.filter((_, i) => invitationIds[i]);
    await scheduleReminders(tx, deps.config.timeZone, now, event, invited);
    await recordAudit(tx, admin, now, {
      action: 'exhibitors.imported',
      entityType: 'event',
      entityId: eventId,
      eventId,
      details: {
        fileName: file.fileName,
        added: exhibitors.map((exhibitor) => exhibitor.email),
        invitationsSent: sendInvitations,
        invitationsWithheld,
        summary: preview.summary,
      },
    });
    return {
      added: exhibitors.length,
      ...(invitationsWithheld > 0 ? { invitationsWithheld } : {}),
      summary: preview.summary,
      skipped: preview.rows.filter((row) => row.status !== 'new'),
    };
  });
}

/**
 * The exhibitor record of each new row: the one an address already has (from another event), or a
 * new one with the file's name and company.
 */
async function exhibitorsFor(
  tx: Tx,
  rows: (RosterRow & { normalizedEmail: string })[],
  stamp: string,
): Promise<{ id: string; email: string }[]> {
  const known = new Map<string, string>();
  for (const part of chunks(rows)) {
    const found = await tx
      .selectFrom('exhibitors')
      .select(['id', 'email'])
      .where(
        'email',
        'in',
        part.map((row) => row.normalizedEmail),
      )
      .execute();
    for (const exhibitor of found) known.set(exhibitor.email, exhibitor.id);
  }
  const created: Insertable<ExhibitorsTable>[] = [];
  const exhibitors = rows.map((row) => {
    let id = known.get(row.normalizedEmail);
    if (!id) {
      id = newId();
      known.set(row.normalizedEmail, id);
      created.push({
        id,
        email: row.normalizedEmail,
        full_name: row.fullName,
        company: row.company,
        created_at: stamp,
        updated_at: stamp,
      });
    }
    return { id, email: row.normalizedEmail };
  });
  for (const part of chunks(created)) {
    await tx.insertInto('exhibitors').values(part).execute();
  }
  return exhibitors;
}
