import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { writesToEvent } from '../../src/shared/api/define.ts';
import { ALL_ENDPOINTS } from '../../src/shared/api/index.ts';
import {
  anonymiseEvent,
  archiveEvent,
  duplicateEvent,
  getEvent,
  listEvents,
  unarchiveEvent,
} from '../../src/shared/api/events.ts';
import {
  addExhibitor,
  editExhibitor,
  importRoster,
  listEventExhibitors,
  removeExhibitor,
  resendInvitation,
} from '../../src/shared/api/exhibitors.ts';
import {
  addNominee,
  editNominee,
  moveNominee,
  myEvent,
  myEvents,
  removeNominee,
} from '../../src/shared/api/nominations.ts';
import { participation, sendReminder } from '../../src/shared/api/participation.ts';
import {
  categoryRanking,
  editVote,
  exportEvent,
  exportRanking,
  history,
  merge,
} from '../../src/shared/api/results.ts';
import { signInWithCode, startSignIn } from '../../src/shared/api/auth.ts';
import type { Category } from '../../src/shared/constants.ts';
import type { DuplicateEventInput } from '../../src/shared/schemas/events.ts';
import { MSG } from '../../src/shared/messages.ts';
import { newId } from '../../src/server/lib/crypto.ts';
import { nominee } from '../helpers/nomination-load.ts';
import { TEST_NOW, type Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, errorOf, failureOf, refused } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { DEFAULT_NOMINEE_FIELDS } from '../../src/shared/nominee-fields.ts';
import { DEFAULT_CATEGORY_VIEWS } from '../helpers/categories.ts';

// TEST_NOW is 2026-06-01 in Buenos Aires. Events seeded here: deadline 2026-07-01, event 2026-07-15.
const AFTER_EVENT = '2026-07-16T15:00:00.000Z';
const EVENT_DAY = '2026-07-15T15:00:00.000Z';
const BEFORE_DEADLINE = '2026-06-20T15:00:00.000Z';

describe('the life of an event: duplicate, archive, anonymise', () => {
  const app = useTestApp();

  const at = (instant: string) => app.at(instant);

  const archive = (eventId: string) => app.api.send(archiveEvent, { params: { eventId } });
  const unarchive = (eventId: string) => app.api.send(unarchiveEvent, { params: { eventId } });
  const anonymise = (eventId: string) => app.api.send(anonymiseEvent, { params: { eventId } });
  const myEventIds = async (session: Session) =>
    (await app.api.call(myEvents, {}, { as: session })).events.map((e) => e.id);
  const eventRow = (id: string) =>
    app.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const membersOf = async (eventId: string) =>
    (
      await app.db
        .selectFrom('event_exhibitors')
        .select('exhibitor_id')
        .where('event_id', '=', eventId)
        .orderBy('exhibitor_id')
        .execute()
    ).map((row) => row.exhibitor_id);
  const mailOf = (eventId: string, template: string) =>
    app.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('template', '=', template)
      .execute();

  /** An event whose date has passed, archived through the API. */
  async function archivedEvent(name?: string) {
    const event = await seedEvent(app.db, name ? { name } : {});
    await at(AFTER_EVENT);
    await app.api.call(archiveEvent, { params: { eventId: event.id } });
    return event;
  }

  describe('duplicate', () => {
    const duplicateInput = (eventId: string, fields: Partial<DuplicateEventInput>) => ({
      params: { eventId },
      body: {
        name: 'Premios 2027',
        eventDate: '2027-07-15',
        voteDeadline: '2027-07-01',
        reminders: ['oneDayBefore' as const, 'deadlineDay' as const],
        copyExhibitors: true,
        sendInvitations: false,
        ...fields,
      },
    });
    const duplicate = (eventId: string, fields: Partial<DuplicateEventInput>) =>
      app.api.call(duplicateEvent, duplicateInput(eventId, fields));
    const refuseDuplicate = (eventId: string, fields: Partial<DuplicateEventInput>) =>
      app.api.fail(duplicateEvent, duplicateInput(eventId, fields));

    it('copies the exhibitors, never the votes, and sends no invitation unless asked', async () => {
      const source = await seedEvent(app.db, { name: 'Premios 2026' });
      const a = await seedExhibitor(app.db);
      const b = await seedExhibitor(app.db);
      await seedMembership(app.db, source.id, a.id);
      await seedMembership(app.db, source.id, b.id);
      await seedNominations(app.db, {
        eventId: source.id,
        exhibitorId: a.id,
        category: 'consumption',
        nominees: [{ fiscalId: '30111111111' }, { fiscalId: '30222222222' }],
      });

      const response = await duplicate(source.id, {});
      const copy = response;
      expect(copy).toEqual({
        id: expect.any(String),
        name: 'Premios 2027',
        eventDate: '2027-07-15',
        voteDeadline: '2027-07-01',
        reminders: ['oneDayBefore', 'deadlineDay'],
        archived: false,
        archivable: false,
        anonymised: false,
        closeTime: '23:59',
        timeZone: 'America/Argentina/Buenos_Aires',
        votingOpensAt: null,
        status: 'open',
        votingClosedAt: null,
        votedPercent: null,
        nomineeFields: DEFAULT_NOMINEE_FIELDS,
        hasOwnLogo: false,
        nominableResellers: 'any',
        validateCuit: false,
        sealResults: false,
        resultsSealed: false,
        resultsViewedEarly: null,
        // "Duplicar evento" copies the source's categories with their settings.
        categories: DEFAULT_CATEGORY_VIEWS,
      });
      expect(await membersOf(copy.id)).toEqual([a.id, b.id].sort());
      const votes = await app.db
        .selectFrom('nominations')
        .select('fiscal_id')
        .where('event_id', '=', copy.id)
        .execute();
      expect(votes).toEqual([]);
      const lists = await app.db
        .selectFrom('nomination_lists')
        .select('exhibitor_id')
        .where('event_id', '=', copy.id)
        .execute();
      expect(lists).toEqual([]);
      // The source keeps its own.
      expect(await membersOf(source.id)).toEqual([a.id, b.id].sort());
      expect(await mailOf(copy.id, 'exhibitor-invitation')).toEqual([]);
      // Copied without an invitation: no reminder either until they are invited (issue 31).
      expect(await mailOf(copy.id, 'voting-reminder')).toEqual([]);
      const audit = await app.db
        .selectFrom('audit_log')
        .selectAll()
        .where('event_id', '=', copy.id)
        .where('action', '=', 'event.duplicated')
        .executeTakeFirstOrThrow();
      expect(audit.actor_id).toBe(app.admin.id);
      expect(JSON.parse(audit.details)).toMatchObject({
        from: source.id,
        exhibitors: 2,
        invitationsSent: false,
      });
    });

    it('queues the invitations through the outbox when asked, linked to each membership', async () => {
      const source = await seedEvent(app.db);
      const a = await seedExhibitor(app.db);
      await seedMembership(app.db, source.id, a.id);
      const response = await duplicate(source.id, { sendInvitations: true });
      const copyId = response.id;
      const invitations = await mailOf(copyId, 'exhibitor-invitation');
      expect(invitations.map((mail) => [mail.to_address, mail.status])).toEqual([
        [a.email, 'pending'],
      ]);
      const membership = await app.db
        .selectFrom('event_exhibitors')
        .select('invitation_message_id')
        .where('event_id', '=', copyId)
        .executeTakeFirstOrThrow();
      expect(membership.invitation_message_id).toBe(invitations[0]?.id);
      // Invited: the reminders the dialog chose, one of each.
      expect((await mailOf(copyId, 'voting-reminder')).length).toBe(2);
      await app.t.deliverMail();
      expect(app.t.smtp.messages.some((m) => m.to.includes(a.email))).toBe(true);
    });

    it('copies no exhibitor when "Copiar expositores" is off', async () => {
      const source = await seedEvent(app.db);
      await seedMembership(app.db, source.id, (await seedExhibitor(app.db)).id);
      const response = await duplicate(source.id, { copyExhibitors: false, sendInvitations: true });
      expect(await membersOf(response.id)).toEqual([]);
    });

    it('copies 2,000 exhibitors in one transaction', async () => {
      const source = await seedEvent(app.db);
      const stamp = '2026-01-01T00:00:00.000Z';
      const ids = Array.from({ length: 2000 }, () => newId());
      for (let i = 0; i < ids.length; i += 400) {
        const part = ids.slice(i, i + 400);
        await app.db
          .insertInto('exhibitors')
          .values(
            part.map((id) => ({
              id,
              email: `masivo-${id}@empresa.test`,
              full_name: 'Expositor Masivo',
              company: 'Masiva S.A.',
              created_at: stamp,
              updated_at: stamp,
            })),
          )
          .execute();
        await app.db
          .insertInto('event_exhibitors')
          .values(
            part.map((id) => ({
              event_id: source.id,
              exhibitor_id: id,
              invited_by: null,
              invitation_message_id: null,
              created_at: stamp,
            })),
          )
          .execute();
      }
      const response = await duplicate(source.id, { sendInvitations: true });
      const copyId = response.id;
      expect((await membersOf(copyId)).length).toBe(2000);
      expect((await mailOf(copyId, 'exhibitor-invitation')).length).toBe(2000);
      // Not for the other tests' mail worker to deliver.
      await app.db.deleteFrom('mail_outbox').where('event_id', '=', copyId).execute();
    });

    it('applies the rules of a new event, and answers a missing source with 404', async () => {
      const source = await seedEvent(app.db);
      const before = (await app.db.selectFrom('events').select('id').execute()).length;
      const past = await refuseDuplicate(source.id, {
        eventDate: '2026-05-01',
        voteDeadline: '2026-04-01',
      });
      expect(past.status).toBe(400);
      expect({ code: past.code, message: past.message, fields: past.fields }).toEqual({
        code: 'invalid_input',
        message: MSG.invalidDates,
        fields: { eventDate: MSG.invalidDates },
      });
      const order = await refuseDuplicate(source.id, { voteDeadline: '2027-07-15' });
      expect(order.status).toBe(400);
      expect(order.message).toBe(MSG.deadlineAfterEvent);
      const empty = await refuseDuplicate(source.id, { name: '  ' });
      expect(empty.status).toBe(400);
      const missing = await refuseDuplicate('00000000-0000-4000-8000-000000000000', {});
      expect(missing.status).toBe(404);
      expect(missing.message).toBe(MSG.eventNotFound);
      expect((await app.db.selectFrom('events').select('id').execute()).length).toBe(before);
    });

    it('duplicates an archived event (next year from last year)', async () => {
      const source = await archivedEvent();
      const member = await seedExhibitor(app.db);
      await seedMembership(app.db, source.id, member.id);
      const response = await duplicate(source.id, {});
      expect(await membersOf(response.id)).toEqual([member.id]);
    });
  });

  describe('archive', () => {
    it('archives only after the event date, and Desarchivar reverses it', async () => {
      const event = await seedEvent(app.db);
      await at(EVENT_DAY);
      const early = await archive(event.id);
      expect(early.status).toBe(409);
      expect(errorOf(refused(early))).toEqual({
        code: 'event_not_over',
        message: MSG.eventNotOver,
      });
      expect((await eventRow(event.id)).archived_at).toBeNull();
      const read = await app.api.call(getEvent, { params: { eventId: event.id } });
      expect(read).toMatchObject({ archived: false, archivable: false });

      await at(AFTER_EVENT);
      const readAfter = await app.api.call(getEvent, { params: { eventId: event.id } });
      expect(readAfter).toMatchObject({ archived: false, archivable: true });
      const done = await archive(event.id);
      expect(done.status).toBe(200);
      expect(answered(done).data).toMatchObject({
        id: event.id,
        archived: true,
        anonymised: false,
      });
      expect((await eventRow(event.id)).archived_at).toBe(AFTER_EVENT);
      const twice = await archive(event.id);
      expect(twice.status).toBe(409);
      expect(refused(twice).message).toBe(MSG.eventArchived);

      const undo = await unarchive(event.id);
      expect(undo.status).toBe(200);
      expect(answered(undo).data).toMatchObject({ archived: false });
      expect((await eventRow(event.id)).archived_at).toBeNull();
      const again = await unarchive(event.id);
      expect(again.status).toBe(409);
      expect(errorOf(refused(again))).toEqual({
        code: 'event_not_archived',
        message: MSG.eventNotArchived,
      });
      const actions = await app.db
        .selectFrom('audit_log')
        .select(['action', 'actor_id'])
        .where('event_id', '=', event.id)
        .orderBy('id')
        .execute();
      expect(actions).toEqual([
        { action: 'event.archived', actor_id: app.admin.id },
        { action: 'event.unarchived', actor_id: app.admin.id },
      ]);
    });

    it('lists archived events on /admin only with "Archivados"', async () => {
      const open = await seedEvent(app.db, { name: 'Lista Abierta' });
      const closed = await archivedEvent('Lista Archivada');
      const names = async (query: { archived?: 'true'; q?: string } = {}) =>
        (await app.api.call(listEvents, { query })).events.map((event) => event.id);
      expect(await names()).toContain(open.id);
      expect(await names()).not.toContain(closed.id);
      expect(await names({ archived: 'true' })).toContain(closed.id);
      expect(await names({ archived: 'true' })).not.toContain(open.id);
      expect(await names({ archived: 'true', q: 'lista' })).toEqual([closed.id]);
      // A value the contract does not know, sent as is.
      const bad = await app.t.request({
        method: 'GET',
        url: '/api/events?archived=si',
        as: app.as,
      });
      expect(bad.statusCode).toBe(400);
    });

    it('hides an archived event from its exhibitors, in the list and by direct access', async () => {
      const event = await seedEvent(app.db);
      const member = await seedExhibitor(app.db);
      await seedMembership(app.db, event.id, member.id);
      await at(AFTER_EVENT);
      const exh = await app.t.signIn({ role: 'exh', exhibitorId: member.id });
      const mine = () => myEventIds(exh);
      expect(await mine()).toEqual([event.id]);
      expect(
        (await app.api.send(myEvent, { params: { eventId: event.id } }, { as: exh })).status,
      ).toBe(200);
      await archive(event.id);
      expect(await mine()).toEqual([]);
      const direct = await app.api.fail(myEvent, { params: { eventId: event.id } }, { as: exh });
      expect(direct.status).toBe(404);
      expect(direct.message).toBe(MSG.eventNotFound);
      // A write by someone who is not in the event says no more than a missing event would.
      const stranger = await seedExhibitor(app.db);
      const other = await app.t.signIn({ role: 'exh', exhibitorId: stranger.id });
      const foreign = await app.api.fail(
        removeNominee,
        {
          params: { eventId: event.id, category: 'consumption', fiscalId: '30111111111' },
          query: { version: '1' },
        },
        { as: other },
      );
      expect(foreign.status).toBe(404);
      expect(foreign.message).toBe(MSG.eventNotFound);
    });

    /** An archived event whose one exhibitor had nominated `fiscalIds` (CONSUMO), signed in. */
    const archivedEventWithVotes = async (fiscalIds: string[]) => {
      const event = await seedEvent(app.db);
      const member = await seedExhibitor(app.db);
      await seedMembership(app.db, event.id, member.id);
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: member.id,
        category: 'consumption',
        nominees: fiscalIds.map((fiscalId) => ({ fiscalId })),
      });
      await at(AFTER_EVENT);
      expect((await archive(event.id)).status).toBe(200);
      const exh = await app.t.signIn({ role: 'exh', exhibitorId: member.id });
      return { event, member, exh };
    };
    /** Every stored row a refused write to the event could have changed. */
    const storedRowsOf = async (eventId: string) => ({
      event: await eventRow(eventId),
      members: await membersOf(eventId),
      lists: await app.db
        .selectFrom('nomination_lists')
        .selectAll()
        .where('event_id', '=', eventId)
        .execute(),
      nominations: await app.db
        .selectFrom('nominations')
        .selectAll()
        .where('event_id', '=', eventId)
        .execute(),
      mail: await app.db.selectFrom('mail_outbox').selectAll().execute(),
      audit: await app.db.selectFrom('audit_log').selectAll().execute(),
    });

    it('refuses every write endpoint of the contract on an archived event with 409, changing nothing', async () => {
      const { event, member, exh } = await archivedEventWithVotes(['30111111111']);
      const snapshot = () => storedRowsOf(event.id);
      const before = await snapshot();
      const values: Record<string, string> = {
        eventId: event.id,
        exhibitorId: member.id,
        category: 'consumption',
        fiscalId: '30111111111',
        order: '1',
        auditId: '1',
      };
      const walked: string[] = [];
      // Empty bodies and placeholder ids, which the contract forbids: sent as they are.
      for (const endpoint of ALL_ENDPOINTS.filter(writesToEvent)) {
        const url = endpoint.path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? 'x');
        const response = await app.t.request({
          method: endpoint.method,
          url,
          as: endpoint.access === 'exhibitor' ? exh : app.as,
          payload: {},
        });
        expect(response.statusCode, `${endpoint.method} ${endpoint.path}`).toBe(409);
        expect(errorOf(failureOf(response))).toEqual({
          code: 'event_archived',
          message: MSG.eventArchived,
        });
        walked.push(`${endpoint.method} ${endpoint.path}`);
      }
      expect(walked).toEqual(
        expect.arrayContaining([
          'PUT /api/events/:eventId',
          'DELETE /api/events/:eventId',
          'POST /api/events/:eventId/exhibitors',
          'PUT /api/events/:eventId/exhibitors/:exhibitorId',
          'DELETE /api/events/:eventId/exhibitors/:exhibitorId',
          'POST /api/events/:eventId/exhibitors/:exhibitorId/invitation',
          'POST /api/events/:eventId/exhibitors/import',
          'POST /api/events/:eventId/participation/reminder',
          'POST /api/exh/events/:eventId/:category/nominees',
          'PUT /api/exh/events/:eventId/:category/nominees/:fiscalId',
          'DELETE /api/exh/events/:eventId/:category/nominees/:fiscalId',
          'PUT /api/events/:eventId/exhibitors/:exhibitorId/votes/:category/:order',
          'POST /api/events/:eventId/duplicates/:category/merge',
          'POST /api/events/:eventId/history/:auditId/undo',
        ]),
      );
      expect(await snapshot()).toEqual(before);
      // Reading stays possible.
      const ranking = await app.api.send(categoryRanking, {
        params: { eventId: event.id, category: 'consumption' },
      });
      expect(ranking.status).toBe(200);
    });

    it("refuses an exhibitor's complete, current saves on an archived event with 409, changing nothing", async () => {
      // The walk above sends empty bodies; these pass every other check, so the save's own
      // transaction is what refuses them.
      const { event, exh } = await archivedEventWithVotes(['30111111118', '30222222227']);
      const snapshot = () => storedRowsOf(event.id);
      const before = await snapshot();
      const list = { eventId: event.id, category: 'consumption' } as const;
      const saves = [
        () =>
          app.api.send(
            addNominee,
            { params: list, body: { ...nominee('30333333337'), version: 1 } },
            { as: exh },
          ),
        () =>
          app.api.send(
            editNominee,
            {
              params: { ...list, fiscalId: '30111111118' },
              body: { ...nominee('30111111118'), version: 1 },
            },
            { as: exh },
          ),
        () =>
          app.api.send(
            removeNominee,
            { params: { ...list, fiscalId: '30111111118' }, query: { version: '1' } },
            { as: exh },
          ),
        () =>
          app.api.send(
            moveNominee,
            { params: { ...list, fiscalId: '30222222227' }, body: { direction: 'up', version: 1 } },
            { as: exh },
          ),
      ];
      for (const [n, save] of saves.entries()) {
        const failure = refused(await save());
        expect(failure.status, `save ${n + 1}`).toBe(409);
        expect(errorOf(failure)).toEqual({
          code: 'event_archived',
          message: MSG.eventArchived,
        });
      }
      expect(await snapshot()).toEqual(before);
    });

    it('withdraws the unsent reminders, and the mail worker sends none for an archived event', async () => {
      const event = await seedEvent(app.db);
      const member = await seedExhibitor(app.db);
      await seedMembership(app.db, event.id, member.id);
      const queue = async () => {
        const id = newId();
        await app.db
          .insertInto('mail_outbox')
          .values({
            id,
            template: 'voting-reminder',
            params: JSON.stringify({
              eventId: event.id,
              exhibitorId: member.id,
              kind: 'deadlineDay',
            }),
            to_address: member.email,
            status: 'pending',
            attempts: 0,
            next_attempt_at: '2026-07-01T12:00:00.000Z',
            locked_until: null,
            last_error: null,
            subject: null,
            sent_at: null,
            event_id: event.id,
            exhibitor_id: member.id,
            created_at: '2026-06-01T12:00:00.000Z',
          })
          .execute();
        return id;
      };
      const withdrawn = await queue();
      await at(AFTER_EVENT);
      await archive(event.id);
      const status = async (id: string) =>
        (
          await app.db
            .selectFrom('mail_outbox')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).status;
      expect(await status(withdrawn)).toBe('cancelled');
      // One queued behind the archive's back (a retry) is skipped when its turn comes.
      const late = await queue();
      const toMember = () => app.t.smtp.messages.filter((m) => m.to.includes(member.email)).length;
      const sentBefore = toMember();
      await app.t.deliverMail();
      expect(await status(late)).not.toBe('sent');
      expect(toMember()).toBe(sentBefore);
    });

    it('a write racing the archive either lands before it or is refused', async () => {
      const event = await seedEvent(app.db);
      await at(AFTER_EVENT);
      const add = (email: string, fullName: string, company: string) =>
        app.api.send(addExhibitor, {
          params: { eventId: event.id },
          body: { email, fullName, company },
        });
      const adding = (from: number) =>
        Array.from({ length: 6 }, (_, n) => {
          const i = from + n;
          return add(
            `carrera${i}-${event.id.slice(0, 8)}@empresa.test`,
            `Carrera ${i}`,
            'Carreras S.A.',
          );
        });
      // Six adds, the archive, six more: all sent before any answer is read.
      const first = adding(0);
      const archiving = archive(event.id);
      const rest = adding(6);
      const addAnswers = await Promise.all([...first, ...rest]);
      const archived = await archiving;
      expect(archived.status).toBe(200);
      for (const answer of addAnswers) {
        expect([201, 409]).toContain(answer.status);
        if (!answer.ok) expect(answer.message).toBe(MSG.eventArchived);
      }
      const stored = await membersOf(event.id);
      expect(stored.length).toBe(addAnswers.filter((a) => a.status === 201).length);
      const late = await add(`tarde-${event.id.slice(0, 8)}@empresa.test`, 'Tarde', 'Tarde S.A.');
      expect(late.status).toBe(409);
      expect((await membersOf(event.id)).length).toBe(stored.length);
    });
  });

  describe('anonymise', () => {
    const NOMINEE = (n: number) => ({
      name: `Reseller Anon ${n}`,
      registeredName: `Razón Anon ${n} S.A.`,
      fiscalId: `3077700000${n}`,
      contactName: `Contactoprivado Nro${n}`,
      contactPosition: 'Gerente',
      phone: `11999900${n}${n}`,
      email: `contacto.privado${n}@resellerprivado.test`,
      location: 'Centro',
      city: 'Rosario',
    });

    /** Every text column of every table of this database (both engines). */
    async function textColumns(): Promise<[string, string][]> {
      if (app.t.database.engine === 'postgres') {
        const rows = await sql<{ table_name: string; column_name: string }>`
          select table_name, column_name from information_schema.columns
          where table_schema = current_schema() and data_type in ('text', 'character varying')
        `.execute(app.db);
        return rows.rows.map((row) => [row.table_name, row.column_name]);
      }
      const tables = await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and name not like 'sqlite_%'
      `.execute(app.db);
      const columns: [string, string][] = [];
      for (const table of tables.rows) {
        const info = await sql<{ name: string; type: string }>`
          select name, type from pragma_table_info(${table.name})
        `.execute(app.db);
        for (const column of info.rows) {
          if (column.type.toLowerCase() === 'text') columns.push([table.name, column.name]);
        }
      }
      return columns;
    }

    async function whereFound(value: string): Promise<string[]> {
      const found: string[] = [];
      for (const [table, column] of await textColumns()) {
        const hit = await sql<{ n: number }>`
          select count(*) as n from ${sql.table(table)}
          where lower(${sql.ref(column)}) like ${`%${value.toLowerCase()}%`}
        `.execute(app.db);
        if (Number(hit.rows[0]?.n ?? 0) > 0) found.push(`${table}.${column}`);
      }
      return found;
    }

    async function rankingAndExports(eventId: string) {
      const ranking = async (category: Category) =>
        (await app.api.call(categoryRanking, { params: { eventId, category } })).rows.map(
          ({ contactName: _c, contactPosition: _cp, phone: _p, email: _e, ...row }) => row,
        );
      const sheet = async (download: Promise<Buffer>, names: string[]) => {
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load((await download) as unknown as ArrayBuffer);
        return names.map((name) => {
          const ws = workbook.getWorksheet(name) ?? workbook.worksheets[0];
          const rows: unknown[][] = [];
          ws?.eachRow((row) => {
            const cells: unknown[] = [];
            row.eachCell({ includeEmpty: true }, (cell) => cells.push(cell.value));
            rows.push(cells);
          });
          const header = (rows[0] ?? []).map(String);
          const keep = ['Posición', 'ID fiscal', 'Nombre del reseller', 'Razón social', 'Puntos'];
          const indexes = keep.map((title) => header.indexOf(title)).filter((i) => i >= 0);
          return rows.map((row) => indexes.map((i) => row[i]));
        });
      };
      return {
        consumption: await ranking('consumption'),
        value: await ranking('value'),
        rankingExport: await sheet(
          app.api.call(exportRanking, { params: { eventId, category: 'consumption' } }),
          ['x'],
        ),
        eventExport: await sheet(app.api.call(exportEvent, { params: { eventId } }), [
          'CONSUMO',
          'VALOR AGREGADO',
        ]),
      };
    }

    /** Every row of every table of this database, as JSON text per table (both engines). */
    async function everyTableAsText(): Promise<Record<string, string>> {
      const tables =
        app.t.database.engine === 'postgres'
          ? await sql<{ name: string }>`
              select table_name as name from information_schema.tables
              where table_schema = current_schema() and table_type = 'BASE TABLE'
            `.execute(app.db)
          : await sql<{ name: string }>`
              select name from sqlite_master where type = 'table'
            `.execute(app.db);
      const dump: Record<string, string> = {};
      for (const { name } of tables.rows) {
        const rows = await sql`select * from ${sql.table(name)}`.execute(app.db);
        dump[name] = JSON.stringify(rows.rows);
      }
      return dump;
    }

    const escaped = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    /** `value` as a whole word (not inside a longer word or number), ignoring case. */
    const wholeWord = (value: string) =>
      new RegExp(`(?<![\\p{L}\\p{N}])${escaped(value)}(?![\\p{L}\\p{N}])`, 'iu');

    /** The tables whose text holds `value` as a whole word. */
    const tablesHolding = (dump: Record<string, string>, value: string) =>
      Object.entries(dump)
        .filter(([, text]) => wholeWord(value).test(text))
        .map(([table]) => table);

    /** Every cell of "Exportar todo", read back with exceljs, one per line. */
    async function eventWorkbookText(eventId: string): Promise<string> {
      const download = await app.api.call(exportEvent, { params: { eventId } });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(download as unknown as ArrayBuffer);
      const cells: string[] = [];
      workbook.eachSheet((sheet) =>
        sheet.eachRow((row) => row.eachCell((cell) => cells.push(cell.text))),
      );
      expect(cells.length).toBeGreaterThan(20);
      return cells.join('\n');
    }

    /** The history tab's search: who and what of each entry found (first page). */
    async function historySearch(eventId: string, q: string): Promise<string[]> {
      const found = await app.api.call(history, { params: { eventId }, query: { q } });
      return found.entries.map((entry) => `${entry.who} · ${entry.detail}`);
    }

    it('refuses an open event, and a second time', async () => {
      const event = await seedEvent(app.db);
      const open = await anonymise(event.id);
      expect(open.status).toBe(409);
      expect(errorOf(refused(open))).toEqual({
        code: 'event_not_archived',
        message: MSG.eventNotArchived,
      });
      const closed = await archivedEvent();
      expect((await anonymise(closed.id)).status).toBe(200);
      const twice = await anonymise(closed.id);
      expect(twice.status).toBe(409);
      expect(errorOf(refused(twice))).toEqual({
        code: 'already_anonymised',
        message: MSG.eventAlreadyAnonymised,
      });
    });

    it('leaves no personal value of the event in any text column, and the ranking and exports exactly as they were', async () => {
      const event = await seedEvent(app.db, { name: 'Premios Olvido' });
      const other = await seedEvent(app.db, {
        name: 'Premios Siguiente',
        eventDate: '2026-12-01',
        voteDeadline: '2026-11-01',
      });
      const solo = await seedExhibitor(app.db, {
        email: 'soledad.solitaria@privado.test',
        fullName: 'Soledad Solitaria',
      });
      const solo2 = await seedExhibitor(app.db, {
        email: 'ramiro.reservado@privado.test',
        fullName: 'Ramiro Reservado',
      });
      const both = await seedExhibitor(app.db, {
        email: 'doble.evento@compartido.test',
        fullName: 'Dora Doblevento',
      });
      for (const member of [solo, solo2, both]) await seedMembership(app.db, event.id, member.id);
      await seedMembership(app.db, other.id, both.id);

      // They vote through the API (history entries with the contacts' data), and get mail.
      await at(BEFORE_DEADLINE);
      const sessions = {
        solo: await app.t.signIn({ role: 'exh', exhibitorId: solo.id }),
        solo2: await app.t.signIn({ role: 'exh', exhibitorId: solo2.id }),
        both: await app.t.signIn({ role: 'exh', exhibitorId: both.id }),
      };
      const votes: [Session, number[]][] = [
        [sessions.solo, [1, 2, 3]],
        [sessions.solo2, [2, 1]],
        [sessions.both, [3, 1]],
      ];
      for (const [session, nominees] of votes) {
        for (const category of ['consumption', 'value'] as const) {
          let version = 0;
          for (const n of nominees) {
            const saved = await app.api.call(
              addNominee,
              { params: { eventId: event.id, category }, body: { ...NOMINEE(n), version } },
              { as: session },
            );
            version = saved.version;
          }
        }
      }
      const invite = await app.api.send(resendInvitation, {
        params: { eventId: event.id, exhibitorId: solo.id },
      });
      expect(invite.status).toBe(200);
      await app.t.deliverMail();

      await at(AFTER_EVENT);
      const bothNow = await app.t.signIn({ role: 'exh', exhibitorId: both.id });
      const soloNow = await app.t.signIn({ role: 'exh', exhibitorId: solo.id });
      expect((await archive(event.id)).status).toBe(200);
      const before = await rankingAndExports(event.id);
      expect(before.consumption.length).toBe(3);

      const response = answered(await anonymise(event.id));
      expect(response.status).toBe(200);
      expect(response.data).toMatchObject({ archived: true, anonymised: true });
      expect(await rankingAndExports(event.id)).toEqual(before);

      const personal = [
        solo.email,
        solo.fullName,
        solo2.email,
        solo2.fullName,
        ...[1, 2, 3].flatMap((n) => [NOMINEE(n).contactName, NOMINEE(n).phone, NOMINEE(n).email]),
      ];
      for (const value of personal) expect(await whereFound(value), value).toEqual([]);

      // Kept exactly: fiscal ids, reseller names, razón social.
      const kept = await app.db
        .selectFrom('nominations')
        .select([
          'fiscal_id',
          'name',
          'registered_name',
          'contact_name',
          'contact_position',
          'phone',
          'email',
        ])
        .where('event_id', '=', event.id)
        .where('fiscal_id', '=', NOMINEE(1).fiscalId)
        .execute();
      expect(kept.length).toBe(6);
      for (const row of kept) {
        expect(row).toEqual({
          fiscal_id: NOMINEE(1).fiscalId,
          name: NOMINEE(1).name,
          registered_name: NOMINEE(1).registeredName,
          contact_name: 'Contacto anonimizado',
          contact_position: 'Cargo anonimizado',
          phone: '0000000000',
          email: 'contacto@anonimizado.invalid',
        });
      }

      // The exhibitor of another event keeps their account, session and membership there; this
      // event no longer leads to them.
      const account = await app.db
        .selectFrom('exhibitors')
        .selectAll()
        .where('id', '=', both.id)
        .executeTakeFirstOrThrow();
      expect([account.email, account.full_name]).toEqual([both.email, both.fullName]);
      expect(await membersOf(other.id)).toEqual([both.id]);
      expect(await membersOf(event.id)).not.toContain(both.id);
      expect((await membersOf(event.id)).length).toBe(3);
      const ofThisEvent = await app.db
        .selectFrom('audit_log')
        .select(['details', 'actor_id', 'entity_id', 'actor_email'])
        .where('event_id', '=', event.id)
        .execute();
      for (const entry of ofThisEvent) {
        expect(JSON.stringify(entry), JSON.stringify(entry)).not.toContain(both.id);
        expect(JSON.stringify(entry).toLowerCase()).not.toContain(both.email);
        expect(JSON.stringify(entry).toLowerCase()).not.toContain(both.fullName.toLowerCase());
      }
      expect(await myEventIds(bothNow)).toEqual([other.id]);

      // Sessions of the anonymised accounts end; the event's mail is gone.
      const soloSessions = await app.db
        .selectFrom('sessions')
        .select('id')
        .where('exhibitor_id', 'in', [solo.id, solo2.id])
        .execute();
      expect(soloSessions).toEqual([]);
      expect((await app.api.send(myEvents, {}, { as: soloNow })).status).toBe(401);
      const mail = await app.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('event_id', '=', event.id)
        .execute();
      expect(mail).toEqual([]);

      // The history says who and when, not what.
      const entry = await app.db
        .selectFrom('audit_log')
        .selectAll()
        .where('event_id', '=', event.id)
        .where('action', '=', 'event.anonymised')
        .executeTakeFirstOrThrow();
      expect([entry.actor_id, entry.at, entry.details]).toEqual([app.admin.id, AFTER_EVENT, '{}']);
      expect((await eventRow(event.id)).anonymised_at).toBe(AFTER_EVENT);
    });

    it('leaves nothing that leads to anyone the event ever held: removed, edited, merged, corrected and shared people, in tables, history search, "Exportar todo" and the SQLite file; reseller names and fiscal ids stay', async () => {
      const event = await seedEvent(app.db, { name: 'Premios Rastro' });
      const other = await seedEvent(app.db, {
        name: 'Premios Vecino',
        eventDate: '2026-12-01',
        voteDeadline: '2026-11-01',
      });
      const person = (fullName: string, email: string) => ({
        fullName,
        email,
        company: 'Consultora Privada',
      });
      const people = {
        // A short name, inside the name of a reseller nominated in the event.
        rita: person('Rita', 'rita.corta@privado.test'),
        ramon: person('Ramón Removido', 'ramon.removido@privado.test'),
        elena: person('Elena Vieja', 'elena.vieja@privado.test'),
        nora: person('Nora Noventa', 'nora.noventa@privado.test'),
        // In this event and the next: their account stays theirs.
        sara: person('Sara Compartida', 'sara.compartida@compartido.test'),
        fermin: person('Fermín Fugaz', 'fermin.fugaz@compartido.test'),
      };
      const elenaNow = person('Elena Nueva', 'elena.nueva@privado.test');
      const ivan = person('Iván Importado', 'ivan.importado@privado.test');
      const reseller = (fiscalId: string, name: string, contact: string, phone: string) => ({
        name,
        registeredName: `${name} S.R.L.`,
        fiscalId,
        contactName: contact,
        contactPosition: 'Gerente',
        phone,
        email: `${contact.toLowerCase().replace(' ', '.')}@contacto.test`,
        location: 'Centro',
        city: 'Rosario',
      });
      const contacts = {
        // Edited by the exhibitor to a contact whose phone "300" is inside the fiscal id.
        changed: reseller('30011122233', 'Margarita Sistemas', 'Claudio Cambiado', '1144401111'),
        short: reseller('30011122233', 'Margarita Sistemas', 'Teodoro Tercero', '300'),
        removed: reseller('30722200001', 'Quinta Redes', 'Quintina Quitada', '1144402222'),
        ofRamon: reseller('30722200002', 'Redes del Sur', 'Rosa Removida', '1144403333'),
        merged: reseller('30799900001', 'Fusión Datos', 'Mercedes Fusionada', '1144404444'),
        into: reseller('30799900002', 'Fusion Datos', 'Corina Corregida', '1144405555'),
        corrected: reseller('30799900002', 'Fusion Datos', 'Cecilia Correcta', '1144406666'),
        ofFermin: reseller('30722200003', 'Fugaz Redes', 'Felipe Fugado', '1144407777'),
      };

      await at(BEFORE_DEADLINE);
      const add = async (eventId: string, who: ReturnType<typeof person>) => {
        return (await app.api.call(addExhibitor, { params: { eventId }, body: who })).id;
      };
      const ids = {
        rita: await add(event.id, people.rita),
        ramon: await add(event.id, people.ramon),
        elena: await add(event.id, people.elena),
        nora: await add(event.id, people.nora),
        sara: await add(event.id, people.sara),
        fermin: await add(event.id, people.fermin),
      };
      expect(await add(other.id, people.sara)).toBe(ids.sara);
      expect(await add(other.id, people.fermin)).toBe(ids.fermin);
      const imported = await app.api.send(
        importRoster,
        { params: { eventId: event.id } },
        {
          file: {
            filename: 'expositores.csv',
            data: Buffer.from(
              `Empresa;E-mail;Nombre completo\nConsultora Privada;${ivan.email};${ivan.fullName}`,
            ),
          },
        },
      );
      expect(imported.status, imported.response.body).toBe(200);

      const versions = new Map<string, number>();
      const write = async (
        exhibitorId: string,
        method: 'POST' | 'PUT' | 'DELETE',
        values: ReturnType<typeof reseller>,
      ) => {
        const version = versions.get(exhibitorId) ?? 0;
        const list = { eventId: event.id, category: 'consumption' } as const;
        const nomineeAt = { ...list, fiscalId: values.fiscalId };
        const as = { as: await app.t.signIn({ role: 'exh', exhibitorId }) };
        const saved =
          method === 'POST'
            ? await app.api.call(addNominee, { params: list, body: { ...values, version } }, as)
            : method === 'PUT'
              ? await app.api.call(
                  editNominee,
                  { params: nomineeAt, body: { ...values, version } },
                  as,
                )
              : await app.api.call(
                  removeNominee,
                  { params: nomineeAt, query: { version: String(version) } },
                  as,
                );
        versions.set(exhibitorId, saved.version);
      };
      await write(ids.rita, 'POST', contacts.changed);
      await write(ids.rita, 'PUT', contacts.short);
      await write(ids.rita, 'POST', contacts.removed);
      await write(ids.rita, 'DELETE', contacts.removed);
      await write(ids.ramon, 'POST', contacts.ofRamon);
      await write(ids.elena, 'POST', contacts.merged);
      await write(ids.sara, 'POST', contacts.into);
      await write(ids.fermin, 'POST', contacts.ofFermin);

      // The administrator removes two, edits one, reminds the others, merges and corrects.
      for (const id of [ids.ramon, ids.fermin]) {
        const removed = await app.api.send(removeExhibitor, {
          params: { eventId: event.id, exhibitorId: id },
        });
        expect(removed.status).toBe(200);
      }
      const edited = await app.api.send(editExhibitor, {
        params: { eventId: event.id, exhibitorId: ids.elena },
        body: elenaNow,
      });
      expect(edited.status, edited.response.body).toBe(200);
      const reminded = await app.api.send(sendReminder, { params: { eventId: event.id } });
      expect(reminded.status, reminded.response.body).toBe(200);
      const merged = await app.api.send(merge, {
        params: { eventId: event.id, category: 'consumption' },
        body: { into: contacts.into.fiscalId, from: [contacts.merged.fiscalId] },
      });
      expect(merged.status, merged.response.body).toBe(200);
      const detail = `Lo pidió Corina Corregida (1144405555) por teléfono; ver Margarita Sistemas`;
      // A correction carries the version of the list it was read from.
      const saraList = await app.db
        .selectFrom('nomination_lists')
        .select('version')
        .where('event_id', '=', event.id)
        .where('exhibitor_id', '=', ids.sara)
        .where('category', '=', 'consumption')
        .executeTakeFirstOrThrow();
      const corrected = await app.api.send(editVote, {
        params: { eventId: event.id, exhibitorId: ids.sara, category: 'consumption', order: '1' },
        body: {
          ...contacts.corrected,
          reason: 'exhibitorRequest',
          detail,
          version: Number(saraList.version),
        },
      });
      expect(corrected.status, corrected.response.body).toBe(200);

      // Rita tries to sign in: a code, its mail and the sign-in counters (account|client).
      const started = await app.signedOut.send(startSignIn, { body: { email: people.rita.email } });
      expect(started.status).toBe(200);
      await app.signedOut.send(signInWithCode, {
        body: { email: people.rita.email, code: '000000' },
      });
      await app.t.deliverMail();
      const throttleOf = (exhibitorId: string) =>
        app.db
          .selectFrom('auth_throttle')
          .select('key')
          .where('key', 'like', `${exhibitorId}%`)
          .execute();
      expect((await throttleOf(ids.rita)).map((row) => row.key)).toContain(`${ids.rita}|127.0.0.1`);

      const gone = [
        ...[people.rita, people.ramon, people.elena, people.nora, elenaNow, ivan].flatMap((p) => [
          p.fullName,
          p.email,
        ]),
        ...Object.values(contacts).flatMap((c) => [c.contactName, c.phone, c.email]),
      ];
      const shared = [people.sara, people.fermin].flatMap((p) => [p.fullName, p.email]);
      // Planted: every value is somewhere before.
      const plantedIn = await everyTableAsText();
      for (const value of [...gone, ...shared]) {
        expect(tablesHolding(plantedIn, value), value).not.toEqual([]);
      }
      expect(tablesHolding(plantedIn, ids.fermin)).toContain('audit_log');

      await at(AFTER_EVENT);
      expect((await archive(event.id)).status).toBe(200);
      const response = await anonymise(event.id);
      expect(response.status).toBe(200);

      // Nowhere in the database.
      const dump = await everyTableAsText();
      for (const value of gone) expect(tablesHolding(dump, value), value).toEqual([]);
      // The shared people are still themselves in the next event, and nowhere in this one.
      const ofThisEvent = JSON.stringify([
        ...(await app.db
          .selectFrom('audit_log')
          .selectAll()
          .where('event_id', '=', event.id)
          .execute()),
        ...(await app.db
          .selectFrom('event_exhibitors')
          .selectAll()
          .where('event_id', '=', event.id)
          .execute()),
        ...(await app.db
          .selectFrom('nomination_lists')
          .selectAll()
          .where('event_id', '=', event.id)
          .execute()),
        ...(await app.db
          .selectFrom('nominations')
          .selectAll()
          .where('event_id', '=', event.id)
          .execute()),
        ...(await app.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('event_id', '=', event.id)
          .execute()),
      ]);
      for (const value of [...shared, ids.sara, ids.fermin]) {
        expect(wholeWord(value).test(ofThisEvent), value).toBe(false);
      }
      expect(await membersOf(other.id)).toEqual([ids.sara, ids.fermin].sort());
      // Fermín's saves here are a placeholder's in the history tab.
      const saves = await app.api.call(history, {
        params: { eventId: event.id },
        query: { action: 'nomination.add' },
      });
      const who = saves.entries
        .filter((entry) => entry.detail.includes('Fugaz Redes'))
        .map((entry) => entry.who);
      expect(who).toEqual([
        expect.stringMatching(/^Expositor anonimizado \(anonimo-.*@anonimizado\.invalid\)$/),
      ]);
      expect(await throttleOf(ids.rita)).toEqual([]);

      // Not found by the history's search, not in "Exportar todo".
      for (const value of [...gone, ...shared]) {
        const found = await historySearch(event.id, value);
        // A short value is found inside kept words ("300" in a fiscal id): never as itself.
        if (value.length >= 5) expect(found, value).toEqual([]);
        for (const text of found)
          expect(wholeWord(value).test(text), `${value}: ${text}`).toBe(false);
      }
      const workbook = await eventWorkbookText(event.id);
      for (const value of [...gone, ...shared]) {
        expect(wholeWord(value).test(workbook), value).toBe(false);
      }

      // Nor in the SQLite file's bytes (secure_delete; the log is cut after anonymising).
      if (app.t.database.engine === 'sqlite') {
        await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(app.db);
        const file = app.t.config.databaseUrl.slice('sqlite:'.length);
        const bytes = Buffer.concat(
          [file, `${file}-wal`]
            .filter((name) => fs.existsSync(name))
            .map((name) => fs.readFileSync(name)),
        ).toString('latin1');
        for (const value of gone) {
          const stored = Buffer.from(value, 'utf8').toString('latin1');
          const asWord = new RegExp(`(?<![A-Za-z0-9])${escaped(stored)}(?![A-Za-z0-9])`, 'i');
          expect(asWord.test(bytes), value).toBe(false);
        }
      }

      // What is no one's data stays: reseller names, razón social, fiscal ids, in every place.
      for (const kept of ['Margarita Sistemas', 'Margarita Sistemas S.R.L.', '30011122233']) {
        expect(tablesHolding(dump, kept), kept).toContain('nominations');
        expect(workbook, kept).toContain(kept);
      }
      expect(await historySearch(event.id, '30011122233')).toContainEqual(
        expect.stringContaining('Margarita Sistemas (30011122233)'),
      );
      const correction = await app.db
        .selectFrom('audit_log')
        .select('details')
        .where('event_id', '=', event.id)
        .where('action', '=', 'vote.edit')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(correction.details)).toMatchObject({
        reason: 'exhibitorRequest',
        detail: 'Lo pidió [anonimizado] ([anonimizado]) por teléfono; ver Margarita Sistemas',
        before: {
          name: 'Fusion Datos',
          fiscalId: '30799900002',
          contactName: 'Contacto anonimizado',
        },
      });
    });

    it('moves a shared exhibitor to a fresh random id with no company: the other event maps nothing back, and the ranking shows the same rows', async () => {
      const event = await seedEvent(app.db, { name: 'Premios Empate' });
      const other = await seedEvent(app.db, {
        name: 'Premios Después',
        eventDate: '2026-12-01',
        voteDeadline: '2026-11-01',
      });
      // The two smallest ids: in a tie to the millisecond the ranking shows the nomination of the
      // smaller, Sofía's; a random id in her place would almost surely sort after Otto's.
      const account = async (id: string, fullName: string, email: string, company: string) => {
        await app.db
          .insertInto('exhibitors')
          .values({
            id,
            email,
            full_name: fullName,
            company,
            created_at: TEST_NOW,
            updated_at: TEST_NOW,
          })
          .execute();
        return { id, fullName, email, company };
      };
      const sofia = await account(
        '00000000-0000-4000-8000-00000000000a',
        'Sofía Doble',
        'sofia.doble@compartido.test',
        'Doble Consultores',
      );
      const otto = await account(
        '00000000-0000-4000-8000-00000000000b',
        'Otto Único',
        'otto.unico@privado.test',
        'Otto Sistemas',
      );
      await seedMembership(app.db, event.id, sofia.id);
      await seedMembership(app.db, event.id, otto.id);
      await seedMembership(app.db, other.id, sofia.id);

      // Both nominate the same fiscal id in the same millisecond (the clock stands still), each
      // with their own spelling, and one more nominee each, tied with each other.
      await at(BEFORE_DEADLINE);
      const spelled = (fiscalId: string, name: string) => ({
        ...NOMINEE(1),
        fiscalId,
        name,
        registeredName: `${name} S.A.`,
        version: 0,
      });
      const votes: [string, ReturnType<typeof spelled>[]][] = [
        [
          sofia.id,
          [spelled('30755500001', 'Empate Redes'), spelled('30755500002', 'Segundo Sofía')],
        ],
        [
          otto.id,
          [spelled('30755500001', 'Empate Redes Otto'), spelled('30755500003', 'Segundo Otto')],
        ],
      ];
      for (const [exhibitorId, nominees] of votes) {
        const session = await app.t.signIn({ role: 'exh', exhibitorId });
        let version = 0;
        for (const values of nominees) {
          const saved = await app.api.call(
            addNominee,
            {
              params: { eventId: event.id, category: 'consumption' },
              body: { ...values, version },
            },
            { as: session },
          );
          version = saved.version;
        }
      }

      await at(AFTER_EVENT);
      expect((await archive(event.id)).status).toBe(200);
      const before = await rankingAndExports(event.id);
      expect(before.consumption[0]).toMatchObject({
        fiscalId: '30755500001',
        name: 'Empate Redes',
        registeredName: 'Empate Redes S.A.',
      });
      expect((await anonymise(event.id)).status).toBe(200);

      // The ranking, its tie-breaks and the exports show exactly the rows they showed.
      expect(await rankingAndExports(event.id)).toEqual(before);

      // A fresh random id, not Sofía's with a digit changed, and nothing of hers.
      const placeholderId = (await membersOf(event.id)).find((id) => id !== otto.id) ?? '';
      expect(placeholderId).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(placeholderId.slice(0, 24)).not.toBe(sofia.id.slice(0, 24));
      const placeholder = await app.db
        .selectFrom('exhibitors')
        .select(['email', 'full_name', 'company'])
        .where('id', '=', placeholderId)
        .executeTakeFirstOrThrow();
      expect(placeholder).toEqual({
        email: `anonimo-${placeholderId}@anonimizado.invalid`,
        full_name: 'Expositor anonimizado',
        company: '',
      });

      // The other event's participation names Sofía; nothing of this event's exhibitors matches
      // a value of hers.
      const theirs = (await app.api.call(participation, { params: { eventId: other.id } }))
        .exhibitors;
      expect(theirs.map((row) => [row.id, row.fullName, row.email, row.company])).toEqual([
        [sofia.id, sofia.fullName, sofia.email, sofia.company],
      ]);
      const listed = await app.api.call(listEventExhibitors, { params: { eventId: event.id } });
      const ours = listed.exhibitors.flatMap((row) => [
        row.id,
        row.fullName,
        row.email,
        row.company,
      ]);
      for (const value of [sofia.id, sofia.fullName, sofia.email, sofia.company]) {
        expect(ours, value).not.toContain(value);
      }
      const auditText = JSON.stringify(
        await app.db.selectFrom('audit_log').selectAll().where('event_id', '=', event.id).execute(),
      );
      expect(auditText).not.toContain(sofia.id);
      expect(auditText).toContain(placeholderId);
    });
  });
});
