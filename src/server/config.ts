import path from 'node:path';
import { z } from 'zod';

export interface Config {
  port: number;
  host: string;
  appUrl: string;
  dataDir: string;
  databaseUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  timeZone: string;
  logLevel: string;
  /**
   * Which proxies' X-Forwarded-For to believe (Fastify's trustProxy): false by default, so that a
   * client cannot pick its own address and slip past the per-client rate limits.
   */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  /** Serve the built web app from this folder when it exists. */
  webDir: string;
  /** Per-client requests per minute on each sign-in step (RATE_LIMIT_SIGNIN_PER_MINUTE). */
  signInRateLimitPerMinute: number;
  /** Time a client has to send a whole request, headers and body (REQUEST_TIMEOUT_SECONDS). */
  requestTimeoutSeconds: number;
  /** Silence on a connection before it is closed (CONNECTION_TIMEOUT_SECONDS). */
  connectionTimeoutSeconds: number;
  /** An idle kept-alive connection is closed after this (KEEP_ALIVE_TIMEOUT_SECONDS). */
  keepAliveTimeoutSeconds: number;
  /**
   * Key material for secrets stored encrypted (administrators' TOTP secrets), SECRET_KEY. Unset: on
   * SQLite a key is generated once into DATA_DIR; on PostgreSQL the second factor is unavailable.
   */
  secretKey: string | undefined;
  /** REQUIRE_ADMIN_MFA: an administrator without a second factor may only set one up. */
  requireAdminMfa: boolean;
  /**
   * METRICS_TOKEN: the bearer token `GET /metrics` requires. Unset: /metrics answers 404 and no
   * figure is collected.
   */
  metricsToken: string | undefined;
}

export const DEFAULT_SIGNIN_RATE_LIMIT_PER_MINUTE = 60;

/**
 * APP_TIMEZONE when unset: the programme's zone, never the server's (UTC on most hosts, which made
 * every mail say "23:59 (hora de UTC)", 20:59 in Argentina). A new event's "Zona horaria" starts
 * from it, and an event created before events had a zone follows it.
 */
export const DEFAULT_TIME_ZONE = 'America/Argentina/Buenos_Aires';

const signInRateLimitSchema = z
  .string()
  .regex(/^\d+$/, 'RATE_LIMIT_SIGNIN_PER_MINUTE must be a whole number of at least 1')
  .transform(Number)
  .refine((n) => n >= 1, 'RATE_LIMIT_SIGNIN_PER_MINUTE must be a whole number of at least 1')
  .default(DEFAULT_SIGNIN_RATE_LIMIT_PER_MINUTE);

/**
 * The per-client sign-in limit, for route tables built at import time (before loadConfig runs).
 * Never throws: loadConfig reports a bad value with its one-line reason.
 */
export function signInRateLimitPerMinute(env: NodeJS.ProcessEnv = process.env): number {
  const parsed = signInRateLimitSchema.safeParse(env.RATE_LIMIT_SIGNIN_PER_MINUTE || undefined);
  return parsed.success ? parsed.data : DEFAULT_SIGNIN_RATE_LIMIT_PER_MINUTE;
}

export class ConfigError extends Error {}

/** Trust the nearest `hops` proxies in front of the app. */
const hopsTrusted = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Whole seconds between 1 and 600: a timeout of 0 would mean none at all. */
const seconds = (name: string, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number of seconds between 1 and 600`)
    .transform(Number)
    .refine(
      (n) => n >= 1 && n <= 600,
      `${name} must be a whole number of seconds between 1 and 600`,
    )
    .default(fallback);

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const envSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d+$/, 'PORT must be a whole number between 0 and 65535')
    .transform(Number)
    .refine((n) => n <= 65535, 'PORT must be a whole number between 0 and 65535')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  APP_URL: z.url('APP_URL must be an absolute http(s) URL').optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .refine(
      (url) => /^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(url),
      'DATABASE_URL must start with sqlite: or postgres://',
    )
    .optional(),
  SMTP_URL: z
    .string()
    .refine((url) => /^smtps?:\/\//.test(url), 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Premios <no-reply@localhost>'),
  APP_TIMEZONE: z
    .string()
    .refine(
      isTimeZone,
      'APP_TIMEZONE must be an IANA time zone such as America/Argentina/Buenos_Aires',
    )
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d+|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/,
      'TRUST_PROXY must be true, false, a number of hops or a list of proxy addresses',
    )
    .optional(),
  WEB_DIR: z.string().optional(),
  RATE_LIMIT_SIGNIN_PER_MINUTE: signInRateLimitSchema,
  REQUEST_TIMEOUT_SECONDS: seconds('REQUEST_TIMEOUT_SECONDS', 60),
  CONNECTION_TIMEOUT_SECONDS: seconds('CONNECTION_TIMEOUT_SECONDS', 60),
  KEEP_ALIVE_TIMEOUT_SECONDS: seconds('KEEP_ALIVE_TIMEOUT_SECONDS', 10),
  SECRET_KEY: z.string().min(32, 'SECRET_KEY must be at least 32 characters long').optional(),
  REQUIRE_ADMIN_MFA: z
    .enum(['true', 'false'], 'REQUIRE_ADMIN_MFA must be true or false')
    .default('false'),
  METRICS_TOKEN: z
    .string()
    .regex(
      /^[\x21-\x7e]{16,}$/,
      'METRICS_TOKEN must be at least 16 printable characters without spaces',
    )
    .optional(),
});

/** Every environment variable the app reads; the README's configuration table lists the same. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** Reads the environment once; a bad value throws ConfigError with a one-line reason. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Only the variables declared above are read, so nothing else in the environment can steer the
  // app; an empty value counts as unset.
  const defined = Object.fromEntries(
    CONFIG_VARIABLES.flatMap((name) => {
      const value = env[name];
      return value === undefined || value === '' ? [] : [[name, value]];
    }),
  );
  const parsed = envSchema.safeParse(defined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `Configuración inválida: ${issue?.path.join('.')}: ${issue?.message ?? 'valor inválido'}`,
    );
  }
  const vars = parsed.data;
  const dataDir = path.resolve(vars.DATA_DIR);
  const databaseUrl = vars.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'premios.db')}`;
  const requireAdminMfa = vars.REQUIRE_ADMIN_MFA === 'true';
  // On PostgreSQL several instances share the database, so none may invent its own key.
  if (requireAdminMfa && !databaseUrl.startsWith('sqlite:') && !vars.SECRET_KEY) {
    throw new ConfigError(
      'Configuración inválida: REQUIRE_ADMIN_MFA=true on PostgreSQL needs SECRET_KEY',
    );
  }
  return {
    port: vars.PORT,
    host: vars.HOST,
    appUrl: (vars.APP_URL ?? `http://localhost:${vars.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl,
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM,
    timeZone: vars.APP_TIMEZONE ?? DEFAULT_TIME_ZONE,
    logLevel: vars.LOG_LEVEL,
    trustProxy:
      vars.TRUST_PROXY === undefined || vars.TRUST_PROXY === 'false'
        ? false
        : vars.TRUST_PROXY === 'true'
          ? true
          : /^\d+$/.test(vars.TRUST_PROXY)
            ? hopsTrusted(Number(vars.TRUST_PROXY))
            : vars.TRUST_PROXY,
    webDir: path.resolve(vars.WEB_DIR ?? 'dist/web'),
    signInRateLimitPerMinute: vars.RATE_LIMIT_SIGNIN_PER_MINUTE,
    requestTimeoutSeconds: vars.REQUEST_TIMEOUT_SECONDS,
    connectionTimeoutSeconds: vars.CONNECTION_TIMEOUT_SECONDS,
    keepAliveTimeoutSeconds: vars.KEEP_ALIVE_TIMEOUT_SECONDS,
    secretKey: vars.SECRET_KEY,
    requireAdminMfa,
    metricsToken: vars.METRICS_TOKEN,
  };
}
