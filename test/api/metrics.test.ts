import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueMails } from '../../src/server/mail/outbox.ts';
import { signInWithCode, startSignIn } from '../../src/shared/api/auth.ts';
import { addNominee, myEvent } from '../../src/shared/api/nominations.ts';
import { MSG } from '../../src/shared/messages.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { errorOf, failureOf, type TestClient } from '../helpers/client.ts';
import { parseMetrics, sampleValue } from '../helpers/metrics.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';
import { nomineeInput } from '../helpers/nominee.ts';

const TOKEN = 'token-de-metricas-de-prueba-0123';

// /metrics is no endpoint of the API's contract: it is requested as it is.

describe('GET /metrics without METRICS_TOKEN', () => {
  const app = useTestApp();

  it('answers 404, with or without a bearer token, as a path that does not exist', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const response = failureOf(await app.t.request({ method: 'GET', url: '/metrics', headers }));
      expect(response.status).toBe(404);
      expect(errorOf(response)).toEqual({ code: 'not_found', message: MSG.apiNotFound });
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  // The counters and the clock carry on from one test to the next.
  const app = useTestApp({ config: { metricsToken: TOKEN }, freshEachTest: false });
  let exh: TestClient;
  let eventId: string;
  let exhibitorEmail: string;
  let exhibitorId: string;

  const scrape = async () => {
    const response = await app.t.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    return parseMetrics(response.body);
  };
  const list = () => ({ eventId, category: 'consumption' as const });
  const version = async () =>
    (await exh.call(myEvent, { params: { eventId } })).lists.consumption.version;

  beforeAll(async () => {
    const { t } = app;
    const event = await seedEvent(t.deps.db);
    const exhibitor = await seedExhibitor(t.deps.db);
    await seedMembership(t.deps.db, event.id, exhibitor.id);
    eventId = event.id;
    exhibitorEmail = exhibitor.email;
    exhibitorId = exhibitor.id;
    exh = await app.exhibitor(exhibitor.id);
  });

  it('refuses a missing, malformed or wrong token with 401 and a Bearer challenge', async () => {
    for (const authorization of [
      undefined,
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      'Bearer ',
    ]) {
      const response = failureOf(
        await app.t.request({
          method: 'GET',
          url: '/metrics',
          headers: authorization === undefined ? {} : { authorization },
        }),
      );
      expect(response.status).toBe(401);
      expect(response.response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(errorOf(response)).toEqual({ code: 'not_signed_in', message: MSG.notSignedIn });
      expect(response.response.body).not.toContain('premios_');
    }
  });

  it("serves Prometheus' text format to the token's holder", async () => {
    const { t } = app;
    const response = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const families = parseMetrics(response.body);
    for (const name of [
      'premios_http_request_duration_seconds',
      'premios_nomination_saves_total',
      'premios_sign_ins_total',
      'premios_outbox_waiting_messages',
      'premios_outbox_oldest_waiting_age_seconds',
      'premios_outbox_sent_total',
      'premios_outbox_failed_total',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(families.types.get(name), name).toBeDefined();
    }
    expect(families.types.has('premios_sqlite_wal_bytes')).toBe(t.deps.engine === 'sqlite');
    // Gauges named like counters are left out (promtool refuses them).
    expect(
      [...families.types].filter(([n, type]) => n.endsWith('_total') && type !== 'counter'),
    ).toEqual([]);
    expect(sampleValue(families, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
  });

  it('counts parallel saves by outcome and times requests by route template and status class', async () => {
    const { t } = app;
    const first = await version();
    // Eight saves at once on the same version: one wins, the others are stale.
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        exh.send(addNominee, {
          params: list(),
          body: { ...nomineeInput(`30${i}`), version: first },
        }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    // A version that is no number: what the contract forbids, sent as is.
    const invalid = await t.request({
      method: 'POST',
      url: `/api/exh/events/${eventId}/consumption/nominees`,
      payload: { ...nomineeInput('abc'), version: 'x' },
      as: await t.signIn({ role: 'exh', exhibitorId }),
    });
    expect(invalid.statusCode).toBe(400);

    let families = await scrape();
    expect(sampleValue(families, 'premios_nomination_saves_total', { outcome: 'saved' })).toBe(1);
    expect(sampleValue(families, 'premios_nomination_saves_total', { outcome: 'stale' })).toBe(7);
    expect(sampleValue(families, 'premios_nomination_saves_total', { outcome: 'refused' })).toBe(1);
    const route = '/api/exh/events/:eventId/:category/nominees';
    const count = (statusClass: string) =>
      sampleValue(families, 'premios_http_request_duration_seconds_count', {
        method: 'POST',
        route,
        status_class: statusClass,
      });
    expect([count('2xx'), count('4xx')]).toEqual([1, 8]);

    // After the deadline (2026-07-01 23:59:59 in Buenos Aires) a save is "closed".
    t.clock.set('2026-07-02T03:00:00.000Z');
    // The session of a month ago has expired: a fresh one.
    exh = await app.exhibitor(exhibitorId);
    const late = await exh.send(addNominee, {
      params: list(),
      body: { ...nomineeInput('400'), version: await version() },
    });
    expect(late.status).toBe(409);
    families = await scrape();
    expect(sampleValue(families, 'premios_nomination_saves_total', { outcome: 'closed' })).toBe(1);
    t.clock.set(TEST_NOW);
  });

  it('counts code sign-ins as accepted, wrong_code and limited, and the outbox as it drains', async () => {
    const { t } = app;
    t.clock.set(TEST_NOW);
    const start = await app.signedOut.send(startSignIn, { body: { email: exhibitorEmail } });
    expect(start.status).toBe(200);
    let families = await scrape();
    expect(sampleValue(families, 'premios_outbox_waiting_messages')).toBe(1);
    expect(sampleValue(families, 'premios_outbox_oldest_waiting_age_seconds')).toBe(0);
    t.clock.advance(90_000);
    families = await scrape();
    expect(sampleValue(families, 'premios_outbox_oldest_waiting_age_seconds')).toBe(90);

    await t.deliverMail();
    const code = /\b(\d{6})\b/.exec(t.smtp.latestTo(exhibitorEmail)!.text)?.[1];
    if (!code) throw new Error('no code in the email');
    const wrong = code === '000000' ? '111111' : '000000';
    const enter = (typed: string, remoteAddress: string) =>
      app.signedOut.send(
        signInWithCode,
        { body: { email: exhibitorEmail, code: typed } },
        { remoteAddress },
      );
    // Five wrong tries from one client at once, then the sixth is refused (429).
    const tries = await Promise.all(Array.from({ length: 5 }, () => enter(wrong, '10.9.9.9')));
    expect(tries.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    expect((await enter(code, '10.9.9.9')).status).toBe(429);
    expect((await enter(code, '10.8.8.8')).status).toBe(200);

    families = await scrape();
    const signIns = (outcome: string) =>
      sampleValue(families, 'premios_sign_ins_total', { kind: 'code', outcome });
    expect([signIns('accepted'), signIns('wrong_code'), signIns('limited')]).toEqual([1, 5, 1]);
    expect(sampleValue(families, 'premios_outbox_waiting_messages')).toBe(0);
    expect(sampleValue(families, 'premios_outbox_oldest_waiting_age_seconds')).toBe(0);
    expect(sampleValue(families, 'premios_outbox_sent_total', { template: 'sign-in-code' })).toBe(
      1,
    );
  });

  it('counts a scheduled message from its time, and a retried one from when it was queued', async () => {
    const { t } = app;
    // A day later, with everything earlier tests queued (the saves' receipts) delivered.
    t.clock.set('2026-06-02T12:00:00.000Z');
    await t.deliverMail();
    expect(sampleValue(await scrape(), 'premios_outbox_waiting_messages')).toBe(0);
    const queuedAt = t.clock.now();
    await t.deps.transact((tx) =>
      enqueueMails(tx, queuedAt, [
        {
          template: 'sign-in-code',
          params: { code: '123456' },
          to: 'programado@expo.test',
          sendAt: new Date(queuedAt.getTime() + 3_600_000),
        },
      ]),
    );
    let families = await scrape();
    expect(sampleValue(families, 'premios_outbox_waiting_messages')).toBe(0);
    expect(sampleValue(families, 'premios_outbox_oldest_waiting_age_seconds')).toBe(0);
    t.clock.advance(3_600_000 + 30_000);
    families = await scrape();
    expect(sampleValue(families, 'premios_outbox_waiting_messages')).toBe(1);
    expect(sampleValue(families, 'premios_outbox_oldest_waiting_age_seconds')).toBe(30);

    // The mail server answers 421: the message waits for its retry and keeps getting older.
    t.smtp.refuse();
    try {
      await t.deliverMail();
    } finally {
      t.smtp.accept();
    }
    t.clock.advance(2_000);
    families = await scrape();
    expect(
      sampleValue(families, 'premios_outbox_failed_total', {
        template: 'sign-in-code',
        final: 'false',
      }),
    ).toBe(1);
    expect(sampleValue(families, 'premios_outbox_waiting_messages')).toBe(1);
    expect(sampleValue(families, 'premios_outbox_oldest_waiting_age_seconds')).toBe(3_632);
    t.clock.advance(60_000);
    await t.deliverMail();
    families = await scrape();
    expect(sampleValue(families, 'premios_outbox_waiting_messages')).toBe(0);
    expect(sampleValue(families, 'premios_outbox_sent_total', { template: 'sign-in-code' })).toBe(
      2,
    );
  });

  it('counts a message the mail server refuses for good as failed, by template', async () => {
    const { t } = app;
    const refused = await seedExhibitor(t.deps.db, { email: 'rebota@expo.test' });
    t.smtp.rejectRecipient(refused.email);
    const start = await app.signedOut.send(startSignIn, { body: { email: refused.email } });
    expect(start.status).toBe(200);
    await t.deliverMail();
    const families = await scrape();
    expect(
      sampleValue(families, 'premios_outbox_failed_total', {
        template: 'sign-in-code',
        final: 'true',
      }),
    ).toBe(1);
    expect(sampleValue(families, 'premios_outbox_waiting_messages')).toBe(0);
  });
});

describe('the README', () => {
  it('shows the committed scrape configuration and alert rules as they are', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.split(/^## /m).find((part) => part.startsWith('Metrics\n'));
    if (!section) throw new Error('README.md has no "## Metrics" section');
    const blocks = [...section.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
    expect(blocks).toEqual([
      fs.readFileSync(path.join(root, 'docs/ops/prometheus.yml'), 'utf8'),
      fs.readFileSync(path.join(root, 'docs/ops/alerts.yml'), 'utf8'),
    ]);
  });
});
