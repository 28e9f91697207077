import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import * as authApi from '../../shared/api/auth.ts';
import type { Endpoint } from '../../shared/api/define.ts';
import * as nominationsApi from '../../shared/api/nominations.ts';
import type { ApiErrorCode } from '../../shared/errors.ts';
import type { AppDeps } from '../deps.ts';
import { answeredErrorCode, errorBody } from './errors.ts';

/**
 * Prometheus figures of one app instance (`GET /metrics`, behind METRICS_TOKEN). Each app has its
 * own registry, never prom-client's global one: several apps in one process (the tests) must not
 * count into each other, and each instance of a deployment reports only what it did itself.
 */
export interface Metrics {
  registry: Registry;
  /** Counts one answered request (onResponse). */
  observe(request: FastifyRequest, reply: FastifyReply): void;
  /** The mail worker's report of one delivery attempt (mail/worker.ts). */
  mailAttempted(template: string, outcome: 'sent' | 'retry' | 'failed'): void;
}

/**
 * prom-client's default Node metrics include three gauges named `…_total`, a suffix Prometheus
 * reserves for counters (Debian's `promtool check metrics` refuses them); the same figures are
 * also exported without the suffix (`nodejs_active_handles` …), so these copies are left out.
 */
const GAUGES_NAMED_LIKE_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** Endpoint → label value, keyed as Fastify names a matched route: `METHOD /path/:param`. */
const routeKey = (endpoint: Pick<Endpoint, 'method' | 'path'>) =>
  `${endpoint.method} ${endpoint.path}`;

const SAVE_ROUTES = new Set(
  [
    nominationsApi.addNominee,
    nominationsApi.editNominee,
    nominationsApi.removeNominee,
    nominationsApi.moveNominee,
  ].map(routeKey),
);

const SIGN_IN_KINDS = new Map<string, string>([
  [routeKey(authApi.signInWithCode), 'code'],
  [routeKey(authApi.signInWithLink), 'link'],
  [routeKey(authApi.signInWithPassword), 'password'],
  [routeKey(authApi.signInWithTotp), 'totp'],
  [routeKey(authApi.signInWithRecoveryCode), 'recovery_code'],
]);

/** Paths outside /api/ that are routes of their own; any other matched route serves a file. */
const OWN_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The route template of a request (`/api/events/:eventId`), never its raw path, so the number of
 * series stays bounded; the web app's files share one label, and unknown paths another.
 */
function routeLabel(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  if (url === undefined) return '(unmatched)';
  return url.startsWith('/api/') || OWN_ROUTES.has(url) ? url : '(static)';
}

function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

const SAVE_OUTCOMES: Partial<Record<ApiErrorCode, string>> = {
  stale_list: 'stale',
  voting_closed: 'closed',
  event_archived: 'archived',
  rate_limited: 'limited',
};

/** saved, stale (someone else's change came first), closed (deadline), archived, limited, refused, error. */
function saveOutcome(status: number, code: ApiErrorCode | undefined): string {
  if (status < 400) return 'saved';
  if (status >= 500) return 'error';
  return (code && SAVE_OUTCOMES[code]) ?? 'refused';
}

const SIGN_IN_OUTCOMES: Partial<Record<ApiErrorCode, string>> = {
  invalid_code: 'wrong_code',
  invalid_link: 'wrong_code',
  mfa_invalid_code: 'wrong_code',
  wrong_password: 'wrong_password',
  sign_in_failed: 'wrong_password',
  rate_limited: 'limited',
  code_tries_exhausted: 'limited',
};

/** accepted, wrong_code, wrong_password, limited, refused (any other 4xx), error. */
function signInOutcome(status: number, code: ApiErrorCode | undefined): string {
  if (status < 400) return 'accepted';
  if (status >= 500) return 'error';
  if (status === 429) return 'limited';
  return (code && SIGN_IN_OUTCOMES[code]) ?? 'refused';
}

interface OutboxFigures {
  waiting: number;
  oldestAgeSeconds: number;
}

/**
 * Mail waiting to go out: pending messages that are due or were already tried (a message in its
 * backoff is still waiting). A scheduled reminder waits from its time; any other message from
 * when it was queued, so one that keeps failing grows older instead of starting again each retry.
 */
async function readOutbox(deps: AppDeps): Promise<OutboxFigures> {
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const rows = await deps.db
    .selectFrom('mail_outbox')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('waiting'),
      eb.fn
        .min(
          eb
            .case()
            .when('attempts', '=', 0)
            .then(eb.ref('next_attempt_at'))
            .else(eb.ref('created_at'))
            .end(),
        )
        .as('since'),
    ])
    .where('status', '=', 'pending')
    .where((w) => w.or([w('next_attempt_at', '<=', nowIso), w('attempts', '>', 0)]))
    .executeTakeFirst();
  const since = rows?.since ? new Date(rows.since).getTime() : now.getTime();
  return {
    waiting: Number(rows?.waiting ?? 0),
    oldestAgeSeconds: Math.max(0, (now.getTime() - since) / 1000),
  };
}

/** The SQLite write-ahead log's size: 0 when it is not there (after a truncation, or closed). */
function walBytes(databaseFile: string): number {
  try {
    return fs.statSync(`${databaseFile}-wal`).size;
  } catch {
    return 0;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Compares digests of equal length, so the time taken says nothing about the token. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (\S+)$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

/** prom-client is loaded only by a server whose figures someone reads (about 2 MB of heap). */
export async function createMetrics(deps: AppDeps): Promise<Metrics> {
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } =
    await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_LIKE_COUNTERS) registry.removeSingleMetric(name);
  const registers = [registry];

  let outboxRead: Promise<OutboxFigures> | undefined;
  // One query per scrape for both outbox gauges, whichever is collected first.
  const outbox = () =>
    (outboxRead ??= readOutbox(deps).finally(() => {
      outboxRead = undefined;
    }));
  const readFailed = (error: unknown) =>
    deps.logger.warn({ err: error }, 'metrics: the outbox could not be read');

  new Gauge({
    name: 'premios_outbox_waiting_messages',
    help: 'Mail in the outbox that is due (or already tried) and not yet sent (shared by every instance of one database)',
    registers,
    async collect() {
      await outbox().then((figures) => this.set(figures.waiting), readFailed);
    },
  });
  new Gauge({
    name: 'premios_outbox_oldest_waiting_age_seconds',
    help: 'Age of the oldest message waiting in the outbox (0 when none waits)',
    registers,
    async collect() {
      await outbox().then((figures) => this.set(figures.oldestAgeSeconds), readFailed);
    },
  });
  const mailSent = new Counter({
    name: 'premios_outbox_sent_total',
    help: 'Messages this instance delivered to the mail server, by template',
    labelNames: ['template'],
    registers,
  });
  const mailFailed = new Counter({
    name: 'premios_outbox_failed_total',
    help: 'Delivery attempts of this instance that failed, by template; final="true": given up (5xx reply or last retry)',
    labelNames: ['template', 'final'],
    registers,
  });
  if (deps.engine === 'sqlite') {
    const databaseFile = deps.config.databaseUrl.slice('sqlite:'.length);
    new Gauge({
      name: 'premios_sqlite_wal_bytes',
      help: 'Size of the SQLite write-ahead log file',
      registers,
      collect() {
        this.set(walBytes(databaseFile));
      },
    });
  }

  const duration = new Histogram({
    name: 'premios_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route template and status class',
    labelNames: ['method', 'route', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const saves = new Counter({
    name: 'premios_nomination_saves_total',
    help: "Exhibitors' nomination saves (add, edit, remove, move) by outcome",
    labelNames: ['outcome'],
    registers,
  });
  const signIns = new Counter({
    name: 'premios_sign_ins_total',
    help: 'Sign-in attempts by kind (code, link, password, totp, recovery_code) and outcome',
    labelNames: ['kind', 'outcome'],
    registers,
  });

  return {
    registry,
    observe(request, reply) {
      const status = reply.statusCode;
      duration.observe(
        { method: request.method, route: routeLabel(request), status_class: statusClass(status) },
        reply.elapsedTime / 1000,
      );
      const key = `${request.method} ${request.routeOptions.url ?? ''}`;
      if (SAVE_ROUTES.has(key)) {
        saves.inc({ outcome: saveOutcome(status, answeredErrorCode(reply)) });
        return;
      }
      const kind = SIGN_IN_KINDS.get(key);
      if (kind) signIns.inc({ kind, outcome: signInOutcome(status, answeredErrorCode(reply)) });
    },
    mailAttempted(template, outcome) {
      if (outcome === 'sent') mailSent.inc({ template });
      else mailFailed.inc({ template, final: outcome === 'failed' ? 'true' : 'false' });
    },
  };
}

/**
 * Counts every request (duration by route template and status class; saves and sign-ins by
 * outcome) and serves `GET /metrics` to a caller with the token. Without a token the app collects
 * nothing and `/metrics` answers 404, like a path that does not exist; a wrong or missing token
 * gets 401 with `WWW-Authenticate: Bearer`, which Prometheus shows as the target's error.
 */
export function installMetrics(
  app: FastifyInstance,
  token: string | undefined,
  metrics: Metrics | undefined,
): void {
  if (token === undefined || metrics === undefined) {
    app.get('/metrics', async (_request, reply) => reply.status(404).send(errorBody('not_found')));
    return;
  }
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe(request, reply);
    done();
  });
  const { registry } = metrics;

  app.get('/metrics', async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send(errorBody('not_signed_in'));
    }
    return reply
      .header('cache-control', 'no-store')
      .type(registry.contentType)
      .send(await registry.metrics());
  });
}
