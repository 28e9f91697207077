/**
 * The registry's rules for an event (issue 27 items 3 and 5): "Resellers nominables" ("Cualquiera",
 * the default, or "Solo los del padrón") and "Validar CUIT" (off by default), set in the event
 * dialogs and held by the server on every route that stores a nomination: the exhibitor's add and
 * edit (on PostgreSQL the one-statement save leaves them to the ordinary path) and the
 * administrator's correction. A refusal is 400 on "ID fiscal" and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { createEvent, duplicateEvent, getEvent, updateEvent } from '../../src/shared/api/events.ts';
import { addNominee, editNominee } from '../../src/shared/api/nominations.ts';
import { addReseller } from '../../src/shared/api/registry.ts';
import { editVote } from '../../src/shared/api/results.ts';
import { isValidCuit } from '../../src/shared/cuit.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { NominableResellers } from '../../src/shared/registry.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { nomineeInput } from '../helpers/nominee.ts';
import { seedExhibitor, seedMembership } from '../helpers/seed.ts';

/** Valid CUITs (check digit right) and the same ids with a wrong one. */
const VALID = '20111111112';
const VALID_TOO = '30712345671';
const WRONG = '20111111113';

describe("an event's registry rules", () => {
  const app = useTestApp();

  async function eventWith(rules: {
    nominableResellers?: NominableResellers;
    validateCuit?: boolean;
  }) {
    const event = await app.api.call(createEvent, {
      body: {
        name: 'Premios Padrón',
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        ...rules,
      },
    });
    const exhibitor = await seedExhibitor(app.db);
    await seedMembership(app.db, event.id, exhibitor.id);
    return { event, exhibitorId: exhibitor.id, exh: await app.exhibitor(exhibitor.id) };
  }

  const nominationsOf = (eventId: string) =>
    app.db
      .selectFrom('nominations')
      .select(['fiscal_id', 'name'])
      .where('event_id', '=', eventId)
      .orderBy('list_order')
      .execute();

  it('checks the CUIT digit with the weights 5432765432', () => {
    expect(isValidCuit(VALID)).toBe(true);
    expect(isValidCuit(VALID_TOO)).toBe(true);
    expect(isValidCuit('20123456786')).toBe(true);
    expect(isValidCuit(WRONG)).toBe(false);
    expect(isValidCuit('2011111111')).toBe(false);
  });

  it('a new event takes any reseller without the check, as the specification', async () => {
    const { event, exh } = await eventWith({});
    expect(event).toMatchObject({ nominableResellers: 'any', validateCuit: false });
    const list = await exh.call(addNominee, {
      params: { eventId: event.id, category: 'consumption' },
      body: { ...nomineeInput(WRONG), version: 0 },
    });
    expect(list.nominees.map((n) => n.fiscalId)).toEqual([WRONG]);
  });

  it('"Solo los del padrón" refuses a fiscal id not in the registry on the exhibitor\'s add and edit', async () => {
    await app.api.call(addReseller, { body: { fiscalId: VALID, name: 'Del Padrón' } });
    const { event, exh } = await eventWith({ nominableResellers: 'registry' });
    expect(event.nominableResellers).toBe('registry');
    const params = { eventId: event.id, category: 'consumption' as const };
    const outside = await exh.fail(addNominee, {
      params,
      body: { ...nomineeInput('30999999990'), version: 0 },
    });
    expect(outside.status).toBe(400);
    expect(outside.message).toBe(MSG.resellerNotInRegistry);
    expect(outside.fields).toEqual({ fiscalId: MSG.resellerNotInRegistry });
    expect(await nominationsOf(event.id)).toEqual([]);
    // In the registry: saved, with what the exhibitor typed (the registry's name is not forced).
    const saved = await exh.call(addNominee, {
      params,
      body: { ...nomineeInput(VALID, { name: 'Como Lo Escribió' }), version: 0 },
    });
    expect(saved.nominees.map((n) => [n.fiscalId, n.name])).toEqual([[VALID, 'Como Lo Escribió']]);
    // Taken out of the registry since: its entry can no longer be saved again, and stays stored.
    await app.db.deleteFrom('resellers').where('fiscal_id', '=', VALID).execute();
    const edit = await exh.fail(editNominee, {
      params: { ...params, fiscalId: VALID },
      body: { ...nomineeInput(VALID, { name: 'Otro Nombre' }), version: 1 },
    });
    expect(edit.status).toBe(400);
    expect(edit.message).toBe(MSG.resellerNotInRegistry);
    expect(await nominationsOf(event.id)).toEqual([{ fiscal_id: VALID, name: 'Como Lo Escribió' }]);
  });

  it('"Validar CUIT" refuses an 11-digit id with a wrong check digit, takes a right one and other lengths', async () => {
    const { event, exh } = await eventWith({ validateCuit: true });
    const params = { eventId: event.id, category: 'value' as const };
    const wrong = await exh.fail(addNominee, {
      params,
      body: { ...nomineeInput('20-11111111-3'), version: 0 },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.message).toBe(MSG.invalidCuit);
    expect(wrong.fields).toEqual({ fiscalId: MSG.invalidCuit });
    expect(await nominationsOf(event.id)).toEqual([]);
    await exh.call(addNominee, { params, body: { ...nomineeInput('20-11111111-2'), version: 0 } });
    await exh.call(addNominee, { params, body: { ...nomineeInput('12345678'), version: 1 } });
    expect((await nominationsOf(event.id)).map((n) => n.fiscal_id)).toEqual([VALID, '12345678']);
  });

  it("refuses the administrator's correction to a fiscal id the rules do not allow", async () => {
    await app.api.call(addReseller, { body: { fiscalId: VALID_TOO, name: 'Padrón Dos' } });
    const { event, exhibitorId, exh } = await eventWith({ nominableResellers: 'registry' });
    await exh.call(addNominee, {
      params: { eventId: event.id, category: 'consumption' },
      body: { ...nomineeInput(VALID_TOO), version: 0 },
    });
    const vote = { eventId: event.id, exhibitorId, category: 'consumption' as const, order: 1 };
    const outside = await app.api.fail(editVote, {
      params: vote,
      body: { ...nomineeInput('30999999990'), reason: 'wrongFiscalId', version: 1 },
    });
    expect(outside.status).toBe(400);
    expect(outside.message).toBe(MSG.resellerNotInRegistry);
    await app.api.call(updateEvent, {
      params: { eventId: event.id },
      body: {
        name: event.name,
        eventDate: event.eventDate,
        voteDeadline: event.voteDeadline,
        nominableResellers: 'any',
        validateCuit: true,
      },
    });
    const wrong = await app.api.fail(editVote, {
      params: vote,
      body: { ...nomineeInput(WRONG), reason: 'wrongFiscalId', version: 1 },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.message).toBe(MSG.invalidCuit);
    expect(await nominationsOf(event.id)).toEqual([
      { fiscal_id: VALID_TOO, name: `Reseller ${VALID_TOO}` },
    ]);
    // With "Cualquiera" a fiscal id outside the registry (not a CUIT) is a correction like any other.
    await app.api.call(editVote, {
      params: vote,
      body: { ...nomineeInput('99999999'), reason: 'wrongFiscalId', version: 1 },
    });
    expect((await nominationsOf(event.id)).map((n) => n.fiscal_id)).toEqual(['99999999']);
  });

  it('an edit keeps the rules it does not send, says what changed in the history, and a duplicate copies them', async () => {
    const { event } = await eventWith({ nominableResellers: 'registry', validateCuit: true });
    const base = { name: event.name, eventDate: event.eventDate, voteDeadline: event.voteDeadline };
    const kept = await app.api.call(updateEvent, { params: { eventId: event.id }, body: base });
    expect(kept).toMatchObject({ nominableResellers: 'registry', validateCuit: true });
    const copy = await app.api.call(duplicateEvent, {
      params: { eventId: event.id },
      body: {
        name: 'Premios Padrón 2027',
        eventDate: '2026-08-15',
        voteDeadline: '2026-08-01',
        copyExhibitors: false,
        sendInvitations: false,
      },
    });
    expect(copy).toMatchObject({ nominableResellers: 'registry', validateCuit: true });
    await app.api.call(updateEvent, {
      params: { eventId: event.id },
      body: { ...base, nominableResellers: 'any', validateCuit: false },
    });
    expect(await app.api.call(getEvent, { params: { eventId: event.id } })).toMatchObject({
      nominableResellers: 'any',
      validateCuit: false,
    });
    const audit = await app.db
      .selectFrom('audit_log')
      .select('details')
      .where('event_id', '=', event.id)
      .where('action', '=', 'event.updated')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details)).toMatchObject({
      before: { nominableResellers: 'registry', validateCuit: true },
      after: { nominableResellers: 'any', validateCuit: false },
    });
    const bad = await app.t.request({
      method: 'PUT',
      url: `/api/events/${event.id}`,
      as: app.as,
      payload: { ...base, nominableResellers: 'todos' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('parallel saves of an exhibitor in a registry-only event keep the rule and the list version', async () => {
    await app.api.call(addReseller, { body: { fiscalId: '30500000011', name: 'Paralelo' } });
    const { event, exh } = await eventWith({ nominableResellers: 'registry' });
    const params = { eventId: event.id, category: 'consumption' as const };
    const answers = await Promise.all([
      exh.send(addNominee, { params, body: { ...nomineeInput('30500000011'), version: 0 } }),
      exh.send(addNominee, { params, body: { ...nomineeInput('30999999990'), version: 0 } }),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    // The one outside the registry is refused by the rule or as stale; never stored.
    expect(statuses[0]).toBe(200);
    expect([400, 409]).toContain(statuses[1]);
    expect((await nominationsOf(event.id)).map((n) => n.fiscal_id)).toEqual(['30500000011']);
  });
});
