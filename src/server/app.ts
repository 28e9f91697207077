import fs from 'node:fs';
import path from 'node:path';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import cookie from '@fastify/cookie';
import helmet from 'helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { LOGO_MAX_BYTES } from '../shared/constants.ts';
import type { Config } from './config.ts';
import { isDatabaseReachable, type DatabaseHandle } from './db/connection.ts';
import type { AppDeps } from './deps.ts';
import { errorBody, installErrorHandling } from './http/errors.ts';
import { createMetrics, installMetrics } from './http/metrics.ts';
import { API_DOCS_HTML, API_DOCS_START_JS, openApiDocument } from './http/openapi.ts';
import type { Route } from './http/route.ts';
import { findSessionUser, sessionToken, type SessionUser } from './http/session.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { AppError } from './lib/errors.ts';
import { createMailWorker, type MailWorker } from './mail/worker.ts';
import { createMailTransport, type MailTransport } from './mail/transport.ts';
import { loadEventLogo } from './modules/branding/event-logo.ts';
import { projectFile } from './paths.ts';
import { apiRoutes } from './modules/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** The route's own statement finds the session (route.ts, OneStatementHandler). */
    sessionInStatement?: boolean;
  }
}

/** Header every state-changing API call must carry: cross-site pages cannot set it (CSRF). */
export const CSRF_HEADER = 'x-requested-with';
export const CSRF_VALUE = 'premios';

export interface BuildOptions {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  mailTransport?: MailTransport;
  logger?: FastifyServerOptions['logger'];
  /** Poll the outbox in the background (off in API tests, which call runOnce). */
  startMailWorker?: boolean;
  /** Extra routes (tests only). */
  routes?: Route[];
}

export interface BuiltApp {
  app: FastifyInstance;
  deps: AppDeps;
  mailWorker: MailWorker;
  routes: Route[];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function registerRoute(app: FastifyInstance, deps: AppDeps, route: Route): void {
  app.route({
    method: route.method,
    url: route.url,
    config: {
      ...(route.rateLimit ? { rateLimit: route.rateLimit } : {}),
      ...(route.sessionInStatement && deps.engine === 'postgres'
        ? { sessionInStatement: true }
        : {}),
    },
    handler: (request, reply) => route.run(request, reply, deps),
  });
}

export async function buildApp(options: BuildOptions): Promise<BuiltApp> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: 256 * 1024,
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    // A client that sends its body slowly, or stops, must not hold a connection: the whole request
    // has its time, silence closes the socket, and an idle kept-alive connection goes soon.
    requestTimeout: config.requestTimeoutSeconds * 1000,
    connectionTimeout: config.connectionTimeoutSeconds * 1000,
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    http: {
      headersTimeout: Math.min(60, config.requestTimeoutSeconds) * 1000,
      // Node looks for requests past their time at this interval (30 s by default).
      connectionsCheckingInterval: Math.min(30, Math.ceil(config.requestTimeoutSeconds / 2)) * 1000,
    },
    // Malformed or oversized URLs are refused by the router before any handler: same error body.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      void reply.status(status).send(errorBody('invalid_input'));
    },
    // One line per request is noise at info level; debug and trace keep it.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
  });
  const deps: AppDeps = {
    config,
    db: database.db,
    transact: database.transact,
    engine: database.engine,
    committed: database.committed,
    clock: options.clock ?? systemClock,
    logger: app.log,
  };
  // Figures are collected only where someone may read them (METRICS_TOKEN set).
  const metrics = config.metricsToken ? await createMetrics(deps) : undefined;
  const mailWorker = createMailWorker(
    deps,
    options.mailTransport ?? createMailTransport(config.smtpUrl, config.dataDir, app.log),
    async (eventId) => (await loadEventLogo(deps.db, eventId)).png,
    metrics,
  );
  const stopWakingMailWorker = database.afterCommit('mail-queued', () => mailWorker.kick());
  database.onIdleConnectionLost((error) =>
    app.log.warn({ err: error }, 'PostgreSQL closed an idle connection; another opens when needed'),
  );
  const routes = [...apiRoutes, ...(options.routes ?? [])];

  installErrorHandling(app);
  // The API speaks JSON (and multipart for the logo); a text body is refused with 415.
  app.removeContentTypeParser('text/plain');
  await app.register(cookie);
  // Built once: the Fastify wrapper rebuilt helmet's middleware on every request.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects style elements at run time; scripts stay self-only.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: config.appUrl.startsWith('https://'),
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) =>
      done(error instanceof Error ? error : undefined),
    );
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError('rate_limited'),
  });
  await app.register(multipart, {
    limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 5, parts: 6 },
  });

  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request, reply) => {
    // Every state-changing request, whatever its path looks like: the router decodes the path
    // (`/%61pi/…` reaches `/api/…`), so a check keyed on the raw URL could be stepped around.
    if (!SAFE_METHODS.has(request.method)) {
      const origin = request.headers.origin;
      const ownOrigins = [new URL(config.appUrl).origin, `${request.protocol}://${request.host}`];
      if (request.headers[CSRF_HEADER] !== CSRF_VALUE || (origin && !ownOrigins.includes(origin))) {
        return reply.status(403).send(errorBody('csrf_rejected'));
      }
    }
    const isApi = request.routeOptions.url?.startsWith('/api/') ?? request.url.startsWith('/api/');
    if (!isApi) return;
    // API answers carry personal data: no shared or back-button cache may keep them. A route
    // whose answer is public (the logo) sets its own policy.
    reply.header('cache-control', 'no-store');
    // A save on PostgreSQL finds its session in its own one statement (docs/decisions/0021).
    if (request.routeOptions.config.sessionInStatement) return;
    const token = sessionToken(request, deps);
    request.user = token ? await findSessionUser(deps, token) : null;
  });

  installMetrics(app, config.metricsToken, metrics);
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ready = await isDatabaseReachable(deps.db);
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable' });
  });
  const openApi = openApiDocument(routes.map((route) => route.endpoint));
  app.get('/api/openapi.json', async () => openApi);
  app.get('/api/docs', async (_request, reply) => reply.type('text/html').send(API_DOCS_HTML));
  app.get('/api/docs/start.js', async (_request, reply) =>
    reply.type('text/javascript').send(API_DOCS_START_JS),
  );
  // Swagger UI's own files, served only under the reference page's path.
  await app.register(fastifyStatic, {
    root: projectFile('node_modules/swagger-ui-dist'),
    prefix: '/api/docs/assets/',
    decorateReply: false,
    allowedPath: (pathName) => /^\/(swagger-ui\.css|swagger-ui-bundle\.js)$/.test(pathName),
  });

  for (const route of routes) registerRoute(app, deps, route);

  const indexFile = path.join(config.webDir, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  // /signin is also built drawn (the form paints before any script): sent when present, and for
  // /signin/code, which shows the same email step when opened directly (no address carried).
  const hasSignInPage = fs.existsSync(path.join(config.webDir, 'signin.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (vite.config.ts).
      preCompressed: true,
      setHeaders(res, filePath) {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET' || !hasWeb) {
      return reply.status(404).send(errorBody('not_found'));
    }
    // History fallback: the web app's router decides what the path shows.
    const pathname = request.url.split('?')[0];
    const signIn = hasSignInPage && (pathname === '/signin' || pathname === '/signin/code');
    return reply
      .header('cache-control', 'no-cache')
      .sendFile(signIn ? 'signin.html' : 'index.html');
  });

  app.addHook('onClose', async () => {
    stopWakingMailWorker();
    await mailWorker.stop();
  });
  if (options.startMailWorker) mailWorker.start();

  return { app, deps, mailWorker, routes };
}
