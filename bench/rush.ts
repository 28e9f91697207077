import fs from 'node:fs';
import { openDatabase } from '../src/server/db/connection.ts';
import { newId } from '../src/server/lib/crypto.ts';
import { SESSION_COOKIE } from '../src/shared/constants.ts';
import { nominee } from '../test/helpers/nomination-load.ts';
import { startSmtpServer } from '../test/helpers/smtp.ts';
import { combine, createClient, runPool, summarize, type LoadStats } from './http-load.ts';
import { startBenchServer, type BenchServer } from './server.ts';
import { startCpuAccount, type CpuShares } from './cpu.ts';
import { defaultCategoryRows } from '../src/server/lib/event-categories.ts';

export interface RushFigures {
  exhibitors: number;
  concurrency: number;
  signIn: LoadStats;
  /**
   * The code step alone (`POST /api/auth/code`) within the sign-ins: the email step and the mail's
   * delivery, which the whole sign-in also waits for, left out (docs/decisions/0033).
   */
  codeStep: LoadStats;
  /** The email step alone (`POST /api/auth/start`: the code issued and its mail queued). */
  emailStep: LoadStats;
  /** From the email step's answer to the mail's arrival at the SMTP server (the outbox's delay). */
  mailWait: LoadStats;
  /** Where the machine's CPU went during the sign-ins (servers, load generator, PostgreSQL). */
  signInCpu: CpuShares;
  /** Why sign-ins failed, with how many times: a status and its body's start, or a timeout. */
  signInFailures: Record<string, number>;
  /**
   * The warm-up wave before the measured saves, not counted in them: servers just started meet
   * the save for the first time, and each PostgreSQL connection compiles the save's function and
   * plans its statements on its first call (docs/decisions/0042).
   */
  warmUp: LoadStats;
  saves: LoadStats;
  /** Each round of saves on its own (every exhibitor's next nominee, after the warm-up). */
  saveRounds: LoadStats[];
  /**
   * The same saves refused by validation (400, before the save's transaction): everything a save
   * costs the server but its transaction.
   */
  refused: LoadStats;
  /**
   * The median of the rounds' save ÷ refused-save throughput, and each round's: what the save's
   * transaction costs against the rest of its request (design section 9's budget, decision 0003).
   */
  savesToRefused: number;
  savesToRefusedRounds: number[];
  healthz: LoadStats;
  /** Median of the rounds' save ÷ /healthz throughput, and of refused saves ÷ /healthz. */
  savesToHealthz: number;
  savesToHealthzRounds: number[];
  refusedToHealthz: number;
  /** Largest size the SQLite write-ahead log file reached during the saves. */
  walPeakBytes: number;
  /** Where the machine's CPU went during the save rounds (servers, load generator, PostgreSQL). */
  saveCpu: CpuShares;
}

const NOMINEES_PER_LIST = 5;
/**
 * Saves before the measured rounds: at a deadline the servers have been taking saves for weeks,
 * their connections open and warm. Four waves of the rush's 64 clients.
 */
const WARM_UP_SAVES = 256;
/** The warm-up's fiscal ids are those of a round after the measured ones. */
const WARM_UP_ROUND = 9;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * An event already in the database that the rush's exhibitors join, open for voting: exhibitor i
 * saves into `categories[i mod length]` (each category's limit at least 5).
 */
export interface RushEvent {
  eventId: string;
  categories: readonly string[];
}

/**
 * The deadline rush: N invited exhibitors sign in with an emailed code, then all save
 * a full list of 5 nominations at once; /healthz is measured with the same client and concurrency.
 * On a fresh SQLite database with one server, or on `databaseUrl` (a PostgreSQL database, or an
 * already seeded SQLite file) with `instances` servers sharing it, exhibitor i talking to server
 * i mod instances. Into CONSUMO of a new event, or into the categories of `event`.
 */
export async function benchRush(
  exhibitors: number,
  concurrency: number,
  shared?: { databaseUrl: string; instances: number },
  event?: RushEvent,
): Promise<RushFigures> {
  const smtp = await startSmtpServer();
  const env = { SMTP_URL: smtp.url, RATE_LIMIT_SIGNIN_PER_MINUTE: String(exhibitors * 10) };
  const servers = [await startBenchServer(env, shared?.databaseUrl)];
  // The first server has migrated the shared database; the others start on it.
  while (servers.length < (shared?.instances ?? 1)) {
    servers.push(await startBenchServer(env, shared?.databaseUrl));
  }
  const database = openDatabase((servers[0] as BenchServer).databaseUrl);
  const clients = servers.map((server) => createClient(server.url, concurrency));
  const clientFor = (i: number) => clients[i % clients.length] as (typeof clients)[number];
  try {
    const eventId = event?.eventId ?? newId();
    const categories = event?.categories ?? ['consumption'];
    const stamp = new Date().toISOString();
    const emails: string[] = [];
    await database.db.transaction().execute(async (trx) => {
      if (!event) {
        await trx
          .insertInto('events')
          .values({
            id: eventId,
            name: 'Premios Rush',
            name_search: 'premios rush',
            event_date: '2099-12-31',
            vote_deadline: '2099-12-30',
            created_by: null,
            created_at: stamp,
            updated_at: stamp,
          })
          .execute();
        await trx
          .insertInto('event_categories')
          .values(defaultCategoryRows(eventId, stamp))
          .execute();
      }
      for (let i = 0; i < exhibitors; i++) {
        const id = newId();
        const email = `rush${i}@expositor.test`;
        emails.push(email);
        await trx
          .insertInto('exhibitors')
          .values({
            id,
            email,
            full_name: `Expositor ${i}`,
            company: 'Empresa',
            created_at: stamp,
            updated_at: stamp,
          })
          .execute();
        await trx
          .insertInto('event_exhibitors')
          .values({
            event_id: eventId,
            exhibitor_id: id,
            invited_by: null,
            invitation_message_id: null,
            created_at: stamp,
            invited_at: stamp,
          })
          .execute();
      }
    });

    // Sign-in: email step (a code is mailed through SMTP), then the code from the email.
    const cookies: string[] = new Array<string>(exhibitors);
    const emailStepLatencies: number[] = [];
    const mailWaitLatencies: number[] = [];
    const codeStepLatencies: number[] = [];
    let codeStepErrors = 0;
    const signInFailures: Record<string, number> = {};
    const failed = (reason: string) => {
      signInFailures[reason] = (signInFailures[reason] ?? 0) + 1;
      return false;
    };
    const signInCpuAccount = startCpuAccount(servers.map((server) => server.pid));
    const signIn = await runPool(concurrency, exhibitors, async (i) => {
      const email = emails[i] as string;
      const client = clientFor(i);
      const emailStepStarted = performance.now();
      const start = await client
        .request('POST', '/api/auth/start', { body: { email } })
        .catch((error: Error) => ({ status: error.message }));
      emailStepLatencies.push(performance.now() - emailStepStarted);
      if (start.status !== 200) return failed(`email step ${start.status}`);
      const mailWaitStarted = performance.now();
      const mail = await smtp.waitFor(email, { timeoutMs: 60_000 }).catch(() => null);
      mailWaitLatencies.push(performance.now() - mailWaitStarted);
      if (!mail) return failed('no mail within 60 s');
      const code = /(\d{6})/.exec(mail.subject)?.[1] ?? '';
      const codeStarted = performance.now();
      const done = await client
        .request('POST', '/api/auth/code', { body: { email, code } })
        .catch((error: Error) => ({ status: error.message, headers: {}, body: '' }));
      codeStepLatencies.push(performance.now() - codeStarted);
      const setCookie = ([] as string[]).concat(
        (done.headers as Record<string, string | string[] | undefined>)['set-cookie'] ?? [],
      );
      const session = setCookie.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
      if (done.status !== 200 || !session) {
        codeStepErrors += 1;
        return failed(`code step ${done.status} ${done.body.slice(0, 120)}`);
      }
      cookies[i] = session.split(';')[0] as string;
      return true;
    });
    const signInCpu = signInCpuAccount.stop();

    // Saves: every exhibitor nominates 5 resellers, one request per change, all at once. The
    // machine's speed drifts over seconds, so the measures take turns: each round of saves (every
    // exhibitor's next nominee) is followed by as many refused saves and as many /healthz
    // requests, and each ratio is the median of the rounds'.
    const versions = new Array<number>(exhibitors).fill(0);
    const databaseUrl = (servers[0] as BenchServer).databaseUrl;
    const walFile =
      database.engine === 'sqlite' ? `${databaseUrl.slice('sqlite:'.length)}-wal` : undefined;
    let walPeakBytes = 0;
    const sampleWal = () => {
      if (!walFile) return;
      try {
        walPeakBytes = Math.max(walPeakBytes, fs.statSync(walFile).size);
      } catch {
        // No log file at this instant (just truncated).
      }
    };
    const walSampler = setInterval(sampleWal, 25);
    const saveRounds: LoadStats[] = [];
    const refusedRounds: LoadStats[] = [];
    const healthzRounds: LoadStats[] = [];
    /** Exhibitor i's save of its `round`-th nominee (a fiscal id of its own) into `category`. */
    const save = (
      i: number,
      round: number,
      version: unknown,
      category = categories[i % categories.length],
    ) =>
      clientFor(i).request('POST', `/api/exh/events/${eventId}/${category}/nominees`, {
        body: { ...nominee(`${20 + round}${String(i).padStart(8, '0')}`), version },
        headers: { cookie: cookies[i] ?? '' },
      });
    // The warm-up: exhibitor i saves one nominee into a category other than the one it fills
    // below (its own list, its own version), so the measured lists start empty.
    const warmUpCategory = (i: number) =>
      categories.length > 1 ? categories[(i + 1) % categories.length] : 'value';
    const warmUp = await runPool(concurrency, Math.min(WARM_UP_SAVES, exhibitors), async (i) => {
      const reply = await save(i, WARM_UP_ROUND, 0, warmUpCategory(i));
      return reply.status === 200;
    });
    const saveCpu: CpuShares = { seconds: 0, servers: 0, load: 0, postgres: 0 };
    for (let round = 0; round < NOMINEES_PER_LIST; round++) {
      const cpu = startCpuAccount(servers.map((server) => server.pid));
      saveRounds.push(
        await runPool(concurrency, exhibitors, async (i) => {
          const reply = await save(i, round, versions[i]);
          if (reply.status !== 200) return false;
          versions[i] = (JSON.parse(reply.body) as { version: number }).version;
          return true;
        }),
      );
      const used = cpu.stop();
      for (const part of ['seconds', 'servers', 'load', 'postgres'] as const) {
        saveCpu[part] += used[part];
      }
      // Signed in, the same body, a version that is not a number: everything a save does but its
      // transaction.
      refusedRounds.push(
        await runPool(concurrency, exhibitors, async (i) => {
          const reply = await save(i, round, 'ninguna');
          return reply.status === 400;
        }),
      );
      healthzRounds.push(
        await runPool(concurrency, exhibitors, async (i) => {
          const reply = await clientFor(i).request('GET', '/healthz');
          return reply.status === 200;
        }),
      );
    }
    clearInterval(walSampler);
    sampleWal();
    const ratiosTo = (rounds: LoadStats[], others: LoadStats[]) =>
      rounds.map((run, round) => run.perSecond / (others[round] as LoadStats).perSecond);
    const savesToRefusedRounds = ratiosTo(saveRounds, refusedRounds);
    const savesToHealthzRounds = ratiosTo(saveRounds, healthzRounds);
    return {
      exhibitors,
      concurrency,
      signIn,
      emailStep: summarize(emailStepLatencies, 0, signIn.seconds),
      mailWait: summarize(mailWaitLatencies, 0, signIn.seconds),
      codeStep: summarize(codeStepLatencies, codeStepErrors, signIn.seconds),
      signInCpu,
      signInFailures,
      warmUp,
      saves: combine(saveRounds),
      saveRounds,
      refused: combine(refusedRounds),
      savesToRefused: median(savesToRefusedRounds),
      savesToRefusedRounds,
      healthz: combine(healthzRounds),
      savesToHealthz: median(savesToHealthzRounds),
      savesToHealthzRounds,
      refusedToHealthz: median(ratiosTo(refusedRounds, healthzRounds)),
      walPeakBytes,
      saveCpu,
    };
  } finally {
    for (const client of clients) client.close();
    await database.close();
    for (const server of servers) await server.stop();
    await smtp.stop();
  }
}
