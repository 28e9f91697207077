import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

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

function toNodemailer(mail: OutgoingMail) {
  return {
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
  };
}

/** SMTP when SMTP_URL is set; otherwise each message is written to DATA_DIR/mail/<id>.eml. */
export function createMailTransport(
  smtpUrl: string | undefined,
  dataDir: string,
  logger: FastifyBaseLogger,
): MailTransport {
  if (smtpUrl) {
    const transporter = nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 5,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as Parameters<typeof nodemailer.createTransport>[0]);
    return {
      async send(mail) {
        await transporter.sendMail(toNodemailer(mail));
      },
      close: () => transporter.close(),
    };
  }
  const folder = path.join(dataDir, 'mail');
  const streamer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(mail) {
      const info = await streamer.sendMail(toNodemailer(mail));
      await fs.mkdir(folder, { recursive: true });
      const file = path.join(folder, `${mail.id}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      logger.info(
        { to: mail.to, subject: mail.subject, file },
        'mail written to file (SMTP_URL unset)',
      );
    },
    close: () => streamer.close(),
  };
}
