import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { AddressInfo } from 'node:net';

export interface CapturedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string | null; mimeType: string; contentId?: string }[];
  raw: string;
}

export interface TestSmtpServer {
  url: string;
  port: number;
  messages: CapturedMail[];
  /** The most recent message to this address, or undefined. */
  latestTo(address: string): CapturedMail | undefined;
  allTo(address: string): CapturedMail[];
  /** Waits (bounded) until `count` messages to this address have arrived; the last of them. */
  waitFor(address: string, options?: { timeoutMs?: number; count?: number }): Promise<CapturedMail>;
  /** Refuse every message until `accept()` (simulates a mail server outage). */
  refuse(): void;
  accept(): void;
  /** Answer 550 to this recipient, as a server with no such mailbox does. */
  rejectRecipient(address: string): void;
  stop(): Promise<void>;
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const messages: CapturedMail[] = [];
  // Indexed by recipient and woken on arrival: the deadline-rush bench waits for thousands of
  // codes at once, and polling every message list would load the machine it measures.
  const byRecipient = new Map<string, CapturedMail[]>();
  const arrivals = new Set<() => void>();
  let refusing = false;
  const unknownMailboxes = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refusing)
        return callback(Object.assign(new Error('Servicio no disponible'), { responseCode: 421 }));
      if (unknownMailboxes.has(address.address.toLowerCase()))
        return callback(Object.assign(new Error('Buzón inexistente'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        PostalMime.parse(raw).then(
          (parsed) => {
            const mail: CapturedMail = {
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              from: parsed.from?.address ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: parsed.html ?? '',
              attachments: parsed.attachments.map((a) => ({
                filename: a.filename,
                mimeType: a.mimeType,
                ...(a.contentId ? { contentId: a.contentId } : {}),
              })),
              raw,
            };
            messages.push(mail);
            for (const address of mail.to) {
              byRecipient.set(address, [...(byRecipient.get(address) ?? []), mail]);
            }
            for (const wake of [...arrivals]) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A sender that vanishes mid-conversation (the crash tests kill the app while it sends) resets
  // its connection; that is the sender's failure, which the app's outbox handles, not this server's.
  server.on('error', () => undefined);
  const actualPort = (server.server.address() as AddressInfo).port;
  const allTo = (address: string) => byRecipient.get(address.toLowerCase()) ?? [];
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    messages,
    latestTo: (address) => allTo(address).at(-1),
    allTo,
    waitFor(address, options) {
      const count = options?.count ?? 1;
      const timeoutMs = options?.timeoutMs ?? 10_000;
      return new Promise<CapturedMail>((resolve, reject) => {
        const check = () => {
          const found = allTo(address);
          if (found.length < count) return false;
          arrivals.delete(check);
          clearTimeout(timer);
          resolve(found[found.length - 1] as CapturedMail);
          return true;
        };
        const timer = setTimeout(() => {
          arrivals.delete(check);
          reject(new Error(`no mail to ${address} arrived`));
        }, timeoutMs);
        if (!check()) arrivals.add(check);
      });
    },
    refuse: () => {
      refusing = true;
    },
    accept: () => {
      refusing = false;
    },
    rejectRecipient: (address) => {
      unknownMailboxes.add(address.toLowerCase());
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
