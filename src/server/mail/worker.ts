import type { AppDeps } from '../deps.ts';
import type { MailMessage } from '../db/schema.ts';
import { UnreadableMailParams } from './templates/define.ts';
import { isMailTemplateName, mailTemplates } from './templates/index.ts';
import type { MailTransport } from './transport.ts';
import { claimDueMail, markMailAttemptFailed, markMailSent, markMailSkipped } from './outbox.ts';
import { pruneDeviceSignIns } from '../lib/device-sign-ins.ts';
import { pruneThrottle } from '../lib/throttle.ts';

export const MAIL_MAX_ATTEMPTS = 8;
const BATCH_SIZE = 20;
const SEND_CONCURRENCY = 10;
/** A claimed message is hidden from other workers this long (a crashed worker's claim lapses). */
const CLAIM_MS = 60_000;

/** How often the worker's housekeeping runs (rows that no longer count are deleted). */
const HOUSEKEEPING_MS = 60 * 60_000;

/** Exponential backoff: 5 s, 10 s, 20 s … capped at 30 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
}

/** The SMTP server's reply carried by a transport error, if the server answered at all. */
function smtpReply(error: unknown): { reply: string; permanent: boolean } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { responseCode, response } = error as { responseCode?: unknown; response?: unknown };
  if (typeof responseCode !== 'number') return undefined;
  return {
    reply: typeof response === 'string' && response !== '' ? response : String(responseCode),
    permanent: responseCode >= 500 && responseCode < 600,
  };
}

export interface MailWorker {
  /** Sends every due message once; returns how many were attempted. Tests call it directly. */
  runOnce(): Promise<number>;
  start(pollMs?: number): void;
  /** Runs soon, e.g. right after a transaction queued mail. */
  kick(): void;
  stop(): Promise<void>;
}

/** Told of each delivery attempt's outcome (the metrics, when they are on). */
export interface MailAttemptObserver {
  mailAttempted(template: string, outcome: 'sent' | 'retry' | 'failed'): void;
}

export function createMailWorker(
  deps: AppDeps,
  transport: MailTransport,
  /**
   * The PNG a message carries in its header: the logo of the message's event ("Logo del
   * evento"), or the programme's current one for a message of no event or an event without one.
   */
  loadLogoPng: (eventId: string | null) => Promise<Uint8Array>,
  observer?: MailAttemptObserver,
): MailWorker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let lastHousekeeping: number | undefined;

  /**
   * The periodic work beside the mail, on the same timer (every instance runs it; deleting rows
   * that no longer count twice is harmless): the sign-in counters whose windows are over, and the
   * devices exhibitors signed in from, 90 days after their event's date.
   */
  async function housekeeping(): Promise<void> {
    const now = deps.clock.now().getTime();
    if (lastHousekeeping !== undefined && now - lastHousekeeping < HOUSEKEEPING_MS) return;
    lastHousekeeping = now;
    await pruneThrottle(deps.db, deps.clock.now());
    await pruneDeviceSignIns(deps.db, deps.clock.now());
  }

  async function deliver(
    message: MailMessage,
    logoOf: (eventId: string | null) => Promise<Uint8Array>,
  ): Promise<void> {
    try {
      if (!isMailTemplateName(message.template)) {
        throw new UnreadableMailParams(`unknown mail template ${message.template}`);
      }
      // Parsed by the template's own schema: a message that does not fit fails for good.
      const rendered = await mailTemplates[message.template].renderStored(message.params, deps, {
        createdAt: new Date(message.created_at),
      });
      if (!rendered || 'skipped' in rendered) {
        await markMailSkipped(deps.db, message.id, rendered?.skipped ?? 'unwanted');
        return;
      }
      await transport.send({
        id: message.id,
        from: deps.config.mailFrom,
        to: message.to_address,
        logoPng: await logoOf(message.event_id),
        ...rendered,
      });
      await markMailSent(deps.db, message.id, deps.clock.now(), rendered.subject);
      observer?.mailAttempted(message.template, 'sent');
    } catch (error) {
      const smtp = smtpReply(error);
      // A 5xx reply is the mail server's final word (an unknown mailbox, a refused domain): trying
      // again would only delay telling the administrator. 4xx and network errors are retried.
      // So is a message this version cannot read: its stored parameters will not change.
      const finalFailure =
        message.attempts >= MAIL_MAX_ATTEMPTS ||
        smtp?.permanent === true ||
        error instanceof UnreadableMailParams;
      const reason = smtp?.reply ?? (error instanceof Error ? error.message : String(error));
      deps.logger.warn(
        { mailId: message.id, template: message.template, attempts: message.attempts, reason },
        finalFailure ? 'mail failed for good' : 'mail send failed, will retry',
      );
      await markMailAttemptFailed(deps.db, message.id, {
        final: finalFailure,
        reason,
        retryAt: new Date(deps.clock.now().getTime() + retryDelayMs(message.attempts)),
      });
      observer?.mailAttempted(message.template, finalFailure ? 'failed' : 'retry');
    }
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await claimDueMail(deps.db, deps.engine, deps.clock.now(), {
        limit: BATCH_SIZE,
        claimMs: CLAIM_MS,
      });
      if (batch.length === 0) return total;
      // Each logo read once per batch, however many of its messages the batch holds.
      const logos = new Map<string | null, Promise<Uint8Array>>();
      const logoOf = (eventId: string | null) => {
        let logo = logos.get(eventId);
        if (!logo) {
          logo = loadLogoPng(eventId);
          logos.set(eventId, logo);
        }
        return logo;
      };
      // A few at a time over pooled SMTP connections: at the deadline hundreds of codes are due.
      // Each connection takes the next message as soon as it is free, so one slow message does
      // not hold back the others (a voter is waiting for each code).
      let next = 0;
      const connection = async () => {
        while (next < batch.length) await deliver(batch[next++] as MailMessage, logoOf);
      };
      await Promise.all(Array.from({ length: SEND_CONCURRENCY }, connection));
      total += batch.length;
    }
  }

  async function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        total += await drain();
      } while (again);
      await housekeeping();
      return total;
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  function safeRun(): void {
    runOnce().catch((error: unknown) => deps.logger.error({ err: error }, 'mail worker failed'));
  }

  return {
    runOnce,
    start(pollMs = 1_000) {
      timer ??= setInterval(safeRun, pollMs);
      timer.unref();
      safeRun();
    },
    // Only a started worker reacts; tests and the CLI drive delivery with runOnce().
    kick: () => {
      if (timer) setImmediate(safeRun);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      transport.close();
    },
  };
}
