import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_VALUE } from '../src/server/app.ts';
import type { AppDeps } from '../src/server/deps.ts';
import { createSession } from '../src/server/http/session.ts';
import { SESSION_COOKIE } from '../src/shared/constants.ts';
import { freshTestDatabase, type TestDatabase } from '../test/helpers/database.ts';
import { runSaver, type AckedList } from '../test/helpers/nomination-load.ts';
import { seedAdmin, seedEvent, seedExhibitor, seedMembership } from '../test/helpers/seed.ts';
import { startSmtpServer, type TestSmtpServer } from '../test/helpers/smtp.ts';
import { startServer, type RunningServer } from '../test/helpers/server.ts';

const EXHIBITORS = 24;
const KILL_AFTER_SAVES = 150;

const engines = [
  'sqlite',
  ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : []),
] as const;

/**
 * SIGKILL under a load of saves loses no acknowledged save and leaves no half list; the
 * invitations an administrator sends meanwhile, with the mail server down for the whole load, are
 * each delivered once when it is back.
 */
describe.each(engines)('crash under load on %s', (engine) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps every acknowledged save after SIGKILL and restart, and delivers each queued invitation once', async () => {
    const smtp: TestSmtpServer = await startSmtpServer();
    cleanups.push(() => smtp.stop());
    smtp.refuse();
    const testDb: TestDatabase = await freshTestDatabase(engine);
    cleanups.push(() => testDb.drop());
    const first: RunningServer = await startServer({ databaseUrl: testDb.url, smtp });
    const db = first.database.db;
    const event = await seedEvent(db, { eventDate: '2099-12-31', voteDeadline: '2099-12-30' });
    const deps = { db, clock: { now: () => new Date() } } as AppDeps;
    const exhibitors = [];
    for (let i = 0; i < EXHIBITORS; i++) {
      const exhibitor = await seedExhibitor(db);
      await seedMembership(db, event.id, exhibitor.id);
      const token = await createSession(deps, { role: 'exh', exhibitorId: exhibitor.id });
      exhibitors.push({ ...exhibitor, cookie: `${SESSION_COOKIE}=${token}` });
    }

    const admin = await seedAdmin(db);
    const adminCookie = `${SESSION_COOKIE}=${await createSession(deps, { role: 'admin', adminId: admin.id })}`;

    let totalSaves = 0;
    let killed = false;
    // Meanwhile an administrator keeps inviting exhibitors; each 201 means an invitation queued.
    const acknowledgedInvitations: string[] = [];
    const attemptedInvitations: string[] = [];
    const inviting = (async () => {
      for (let i = 0; !killed && i < 200; i++) {
        const email = `invitado${i}@expositor.test`;
        attemptedInvitations.push(email);
        const reply = await fetch(`${first.url}/api/events/${event.id}/exhibitors`, {
          method: 'POST',
          headers: {
            cookie: adminCookie,
            'content-type': 'application/json',
            [CSRF_HEADER]: CSRF_VALUE,
          },
          body: JSON.stringify({ fullName: `Invitado ${i}`, email, company: 'Empresa' }),
        }).catch(() => undefined);
        if (reply?.status === 201) acknowledgedInvitations.push(email);
      }
    })();
    const killing = (async () => {
      await expect
        .poll(() => totalSaves, { timeout: 30_000, interval: 5 })
        .toBeGreaterThanOrEqual(KILL_AFTER_SAVES);
      killed = true;
      await first.crash();
    })();
    const results = await Promise.all(
      exhibitors.map(async (exhibitor, index) => {
        const result = await runSaver({
          baseUrl: first.url,
          cookie: exhibitor.cookie,
          eventId: event.id,
          exhibitorId: exhibitor.id,
          category: index % 2 === 0 ? 'consumption' : 'value',
          maxSaves: 1000,
          shouldStop: () => {
            totalSaves += 1;
            return killed;
          },
        });
        return result;
      }),
    );
    await killing;
    await inviting;
    expect(acknowledgedInvitations.length).toBeGreaterThan(0);
    expect(smtp.messages).toHaveLength(0);
    const acked = results.map((r) => r.acked).filter((a): a is AckedList => Boolean(a));
    expect(acked.length).toBeGreaterThan(EXHIBITORS / 2);

    if (engine === 'sqlite') {
      const file = testDb.url.slice('sqlite:'.length);
      const raw = new DatabaseSync(file);
      expect(raw.prepare('pragma integrity_check').get()).toEqual({ integrity_check: 'ok' });
      raw.close();
      expect(fs.existsSync(file)).toBe(true);
    }

    // Back an hour later, with the mail server up: every retry is due.
    smtp.accept();
    const second = await startServer({
      databaseUrl: testDb.url,
      smtp,
      now: new Date(Date.now() + 3_600_000).toISOString(),
    });
    cleanups.push(() => second.stop());
    const stored = await second.database.db
      .selectFrom('nominations')
      .select(['exhibitor_id', 'category', 'list_order', 'fiscal_id'])
      .where('event_id', '=', event.id)
      .orderBy('exhibitor_id')
      .orderBy('category')
      .orderBy('list_order')
      .execute();
    const versions = await second.database.db
      .selectFrom('nomination_lists')
      .select(['exhibitor_id', 'category', 'version'])
      .where('event_id', '=', event.id)
      .execute();

    // No list is half-written: orders 1..n, n ≤ 5, fiscal ids distinct.
    const lists = new Map<string, typeof stored>();
    for (const row of stored) {
      const key = `${row.exhibitor_id}/${row.category}`;
      lists.set(key, [...(lists.get(key) ?? []), row]);
    }
    for (const rows of lists.values()) {
      expect(rows.length).toBeLessThanOrEqual(5);
      expect(rows.map((r) => r.list_order)).toEqual(rows.map((_r, i) => i + 1));
      expect(new Set(rows.map((r) => r.fiscal_id)).size).toBe(rows.length);
    }
    // Every acknowledged save is there: same version and list, or a later (unacknowledged) one.
    for (const ack of acked) {
      const version = versions.find(
        (v) => v.exhibitor_id === ack.exhibitorId && v.category === ack.category,
      );
      expect(version?.version ?? -1).toBeGreaterThanOrEqual(ack.version);
      const rows = lists.get(`${ack.exhibitorId}/${ack.category}`) ?? [];
      if (version?.version === ack.version) {
        expect(rows.map((r) => r.fiscal_id)).toEqual(ack.fiscalIds);
      } else {
        expect(rows.length).toBeGreaterThanOrEqual(ack.fiscalIds.length);
      }
    }

    // Every acknowledged invitation is delivered exactly once; one cut off by the kill, at most once.
    for (const email of acknowledgedInvitations) {
      const mail = await smtp.waitFor(email, { timeoutMs: 20_000 });
      expect(mail.subject).toBe(`Invitación a votar en ${event.name}`);
    }
    await expect
      .poll(
        async () =>
          (
            await second.database.db
              .selectFrom('mail_outbox')
              .select('status')
              .where('template', '=', 'exhibitor-invitation')
              .where('status', '!=', 'sent')
              .execute()
          ).length,
        { timeout: 20_000 },
      )
      .toBe(0);
    for (const email of attemptedInvitations) {
      const delivered = smtp.allTo(email).length;
      if (acknowledgedInvitations.includes(email)) expect(delivered).toBe(1);
      else expect(delivered).toBeLessThanOrEqual(1);
    }
  });
});
