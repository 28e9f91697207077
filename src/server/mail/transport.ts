import fs from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { projectFile } from '../paths.ts';

export interface OutgoingMail {
  id: string;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  logoPng: Uint8Array;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * nodemailer is loaded with the first message, not at start: an idle server holds no mail code
 * (about 4 MB of heap). The first message waits for it once.
 */
const loadMailComposer = async () => (await import('nodemailer/lib/mail-composer')).default;

/**
 * The message as it goes on the wire. Sent to SMTP as one buffer: streamed part by part, the
 * composer wrote each header and each line of the attached logo to the socket on its own, a
 * system call apiece, and at a deadline rush those writes were a tenth of the server's time.
 */
async function compose(mail: OutgoingMail): Promise<Buffer> {
  const MailComposer = await loadMailComposer();
  return new MailComposer({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: `<${mail.id}@premios>`,
    attachments: [
      {
        filename: 'logo.png',
        content: Buffer.from(mail.logoPng),
        cid: 'logo',
        contentType: 'image/png',
      },
    ],
  })
    .compile()
    .build();
}

/** Sends through pooled SMTP connections on the calling thread. */
export function smtpSender(smtpUrl: string): MailTransport {
  // Loaded now: this runs on the SMTP thread, which starts so that the first codes of a rush do
  // not wait for it.
  const transporter = import('nodemailer').then(({ default: nodemailer }) =>
    nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 10,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as Parameters<typeof nodemailer.createTransport>[0]),
  );
  return {
    async send(mail) {
      const [pooled, raw] = await Promise.all([transporter, compose(mail)]);
      await pooled.sendMail({ envelope: { from: mail.from, to: [mail.to] }, raw });
    },
    close: () => void transporter.then((pooled) => pooled.close()),
  };
}

/** What the SMTP thread is started with. */
export interface SmtpThreadData {
  smtpUrl: string;
}

/** A message posted to the SMTP thread. */
export interface SmtpMessage {
  id: number;
  mail: OutgoingMail;
}

/** A send's outcome as it crosses back: a failure keeps what the mail worker reads of it. */
export type SmtpReply =
  | { id: number; ok: true }
  | {
      id: number;
      ok: false;
      failure: { message: string; responseCode?: number; response?: string; code?: string };
    };

/**
 * The thread's entry: its TypeScript source in development and tests, its own file of the server
 * bundle (vite.server.config.ts) under `npm start`.
 */
const smtpThreadEntry = (): URL | string =>
  import.meta.url.endsWith('.ts')
    ? new URL('./smtp-thread.ts', import.meta.url)
    : projectFile('dist/server/smtp-thread.js');

/**
 * SMTP on a thread of its own. Composing a message and speaking SMTP for it took a fifth of the
 * request thread's time in a deadline rush, where every exhibitor is mailed a code; here it runs
 * beside the requests. The thread starts with the transport, so that the first codes of a rush do
 * not wait for it to boot; if it dies, the sends it held fail (the outbox tries them again) and the
 * next send starts a new one.
 */
function smtpThreadTransport(smtpUrl: string): MailTransport {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve(): void; reject(error: Error): void }>();
  const failAll = (error: Error) => {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  const start = (): Worker => {
    const thread = new Worker(smtpThreadEntry(), {
      workerData: { smtpUrl } satisfies SmtpThreadData,
    });
    thread.unref();
    thread.on('message', (reply: SmtpReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.ok) waiting?.resolve();
      else waiting?.reject(Object.assign(new Error(reply.failure.message), reply.failure));
    });
    thread.on('error', (error: unknown) =>
      failAll(error instanceof Error ? error : new Error(String(error))),
    );
    thread.on('exit', () => {
      if (worker === thread) worker = undefined;
      failAll(new Error('SMTP thread exited'));
    });
    return thread;
  };
  worker = start();
  return {
    send(mail) {
      worker ??= start();
      const id = nextId++;
      const sent = new Promise<void>((resolve, reject) => pending.set(id, { resolve, reject }));
      worker.postMessage({ id, mail } satisfies SmtpMessage);
      return sent;
    },
    close() {
      worker?.postMessage('close');
      worker = undefined;
    },
  };
}

/** SMTP when SMTP_URL is set; otherwise each message is written to DATA_DIR/mail/<id>.eml. */
export function createMailTransport(
  smtpUrl: string | undefined,
  dataDir: string,
  logger: FastifyBaseLogger,
): MailTransport {
  if (smtpUrl) return smtpThreadTransport(smtpUrl);
  const folder = path.join(dataDir, 'mail');
  return {
    async send(mail) {
      const message = await compose(mail);
      await fs.mkdir(folder, { recursive: true });
      const file = path.join(folder, `${mail.id}.eml`);
      await fs.writeFile(file, message);
      logger.info(
        { to: mail.to, subject: mail.subject, file },
        'mail written to file (SMTP_URL unset)',
      );
    },
    close: () => undefined,
  };
}
