import { randomUUID } from 'node:crypto';
import { recordAudit, type AuditEntry } from '../../src/server/lib/audit.ts';
import { AUDIT_ACTIONS, type AuditAction } from '../../src/shared/audit-entries.ts';
import type { TestApp } from './app.ts';

const STAMP = '2026-01-01T10:00:00.000Z';

const vote = (fiscalId: string, name: string, order: number) => ({
  list_order: order,
  fiscal_id: fiscalId,
  name,
  registered_name: `${name} S.A.`,
  contact_name: 'Nora Nueva',
  contact_position: 'Gerente',
  phone: '1144440000',
  email: 'nora@reseller.test',
  location: 'Belgrano',
  city: 'Buenos Aires',
  nominated_at: STAMP,
  updated_at: STAMP,
});

const nominee = (fiscalId: string, name: string) => ({
  name,
  registeredName: `${name} S.A.`,
  fiscalId,
  contactName: 'Nora Nueva',
  contactPosition: 'Gerente',
  phone: '1144440000',
  email: 'nora@reseller.test',
  location: 'Belgrano',
  city: 'Buenos Aires',
});

const entry = (fiscalId: string, name: string, order: number) => ({
  ...nominee(fiscalId, name),
  order,
});

/**
 * One entry of every action "Historial" shows, with details as the server writes them (ids are
 * UUIDs, dates ISO, reminders by their codes): what a readable detail must turn into words.
 * Counts of one, so that a plural where a singular belongs shows.
 */
export function everyHistoryAction(eventId: string, exhibitorId: string): AuditEntry[] {
  const facts = {
    name: 'Premios 2026',
    eventDate: '2026-09-01',
    voteDeadline: '2026-08-01',
    reminders: ['sevenDaysBefore', 'deadlineDay'],
  };
  const merge = {
    category: 'consumption' as const,
    into: '20111111111',
    from: ['20222222222'],
    lists: [
      {
        exhibitorId,
        before: [vote('20222222222', 'Beta', 1)],
        after: [vote('20111111111', 'Alfa', 1)],
      },
    ],
  };
  const list = { exhibitorId, category: 'consumption' as const };
  const on = { entityType: 'event', entityId: eventId, eventId };
  return [
    { ...on, action: 'event.created', details: facts },
    {
      ...on,
      action: 'event.updated',
      details: { before: facts, after: { ...facts, eventDate: '2026-09-02', reminders: [] } },
    },
    {
      ...on,
      action: 'event.duplicated',
      details: { ...facts, from: randomUUID(), exhibitors: 1, invitationsSent: false },
    },
    {
      ...on,
      action: 'event.nominee_fields_changed',
      details: {
        before: {
          contactName: 'required',
          contactPosition: 'required',
          phone: 'required',
          email: 'required',
          location: 'required',
          city: 'required',
        },
        after: {
          contactName: 'required',
          contactPosition: 'optional',
          phone: 'required',
          email: 'required',
          location: 'required',
          city: 'hidden',
        },
      },
    },
    { ...on, action: 'event.logo_replaced', details: { bytes: 1, sha256: 'ab12' } },
    { ...on, action: 'event.logo_removed' },
    { ...on, action: 'event.archived' },
    { ...on, action: 'event.unarchived' },
    { ...on, action: 'event.anonymised' },
    {
      ...on,
      action: 'event.voting_closed',
      details: {
        voteDeadlineBefore: '2026-06-20',
        voteDeadline: '2026-06-01',
        closedAt: '2026-06-01T15:00:00.000Z',
        remindersWithdrawn: 2,
      },
    },
    { ...on, action: 'exhibitors.invited', details: { invited: 1, limited: 0 } },
    {
      ...on,
      action: 'exhibitor.added',
      details: { email: 'elena@expo.test', createdExhibitor: true, invitationId: randomUUID() },
    },
    {
      ...on,
      action: 'exhibitor.edited',
      details: {
        before: { fullName: 'Elena', email: 'elena@expo.test', company: '' },
        after: { fullName: 'Elena Uno', email: 'elena@expo.test', company: 'Norte' },
        invitationId: randomUUID(),
      },
    },
    {
      ...on,
      action: 'exhibitor.removed',
      details: { email: 'ernesto@expo.test', discardedNominations: 1 },
    },
    {
      ...on,
      action: 'exhibitor.invitation_resent',
      details: { email: 'elena@expo.test', invitationId: randomUUID(), previous: randomUUID() },
    },
    {
      ...on,
      action: 'exhibitors.imported',
      details: {
        fileName: 'expositores.xlsx',
        added: ['eva@expo.test'],
        invitationsSent: true,
        summary: { nuevos: 1, yaEstaban: 0, conErrores: 0 },
      },
    },
    { ...on, action: 'exhibitors.reminded', details: { reminded: ['eva@expo.test'] } },
    {
      ...on,
      action: 'exhibitors.invitations_resent',
      details: { resent: ['elena@expo.test', 'eva@expo.test'], limited: 1 },
    },
    {
      ...on,
      action: 'exhibitors.removed',
      details: { removed: ['ernesto@expo.test'], discardedNominations: 3 },
    },
    {
      ...on,
      action: 'nomination.add',
      details: { ...list, before: [], after: [entry('20111111111', 'Alfa', 1)] },
    },
    {
      ...on,
      action: 'nomination.edit',
      details: {
        ...list,
        before: [entry('20111111111', 'Alfa', 1)],
        after: [{ ...entry('20111111111', 'Alfa', 1), phone: '' }],
      },
    },
    {
      ...on,
      action: 'nomination.move',
      details: {
        ...list,
        before: [entry('20111111111', 'Alfa', 1), entry('20222222222', 'Beta', 2)],
        after: [entry('20222222222', 'Beta', 1), entry('20111111111', 'Alfa', 2)],
      },
    },
    {
      ...on,
      action: 'nomination.remove',
      details: { ...list, before: [entry('20111111111', 'Alfa', 1)], after: [] },
    },
    {
      ...on,
      action: 'vote.edit',
      details: {
        ...list,
        order: 1,
        reason: 'typo',
        before: nominee('20111111111', 'Alfa'),
        after: nominee('20111111111', 'Alfa Corregida'),
      },
    },
    {
      ...on,
      action: 'list.annul',
      details: {
        ...list,
        fullName: 'Elena Uno',
        annulReason: 'Votó con otra cuenta',
        entries: [entry('20111111111', 'Alfa', 1)],
      },
    },
    {
      ...on,
      action: 'list.restore',
      details: {
        ...list,
        fullName: 'Elena Uno',
        annulReason: 'Votó con otra cuenta',
        entries: [entry('20111111111', 'Alfa', 1)],
      },
    },
    { ...on, action: 'nominee.merge', details: merge },
    { ...on, action: 'nominee.merge.undo', details: { ...merge, undoOf: 1 } },
    { ...on, action: 'category.created', details: { after: cloud } },
    {
      ...on,
      action: 'category.updated',
      details: {
        before: cloud,
        after: { ...cloud, name: 'NUBE', description: '', nomineeLimit: 3, scoring: 'one' },
      },
    },
    {
      ...on,
      action: 'category.moved',
      details: { address: 'innovacion-cloud', name: 'NUBE', from: 3, to: 2 },
    },
    { ...on, action: 'category.deleted', details: { before: { ...cloud, nomineeLimit: 1 } } },
  ];
}

/** A category as its history entries keep it (issue 26). */
const cloud = {
  address: 'innovacion-cloud',
  name: 'INNOVACIÓN CLOUD',
  description: 'Partners con servicios cloud',
  nomineeLimit: 5,
  scoring: 'place' as const,
};

/** The actions `everyHistoryAction` leaves out: none of those "Historial" shows. */
export const missingHistoryActions = (entries: AuditEntry[]): AuditAction[] =>
  (Object.keys(AUDIT_ACTIONS) as AuditAction[]).filter(
    (action) => AUDIT_ACTIONS[action].inHistory && !entries.some((e) => e.action === action),
  );

/** Records `entries` as the administrator `adminId`, in order, at the app's clock. */
export async function recordEntries(t: TestApp, adminId: string, entries: AuditEntry[]) {
  await t.deps.transact(async (tx) => {
    for (const item of entries) {
      await recordAudit(tx, { role: 'admin', adminId }, t.clock.now(), item);
    }
  });
}

/** A key as code writes it ("eventDate:", "invitationId:"), an id, an ISO instant. */
export const RAW_KEY = /\b[a-z]+[A-Z][a-zA-Z]*:/;
export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
export const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
