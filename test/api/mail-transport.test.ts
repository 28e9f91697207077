import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { createMailTransport, type OutgoingMail } from '../../src/server/mail/transport.ts';

const logo = fs.readFileSync(
  path.join(import.meta.dirname, '../../src/server/assets/default-logo.png'),
);
const mail: OutgoingMail = {
  id: 'm-1',
  from: 'Premios <premios@premios.test>',
  to: 'ana@expositor.test',
  subject: 'Tu código de acceso: 123456',
  html: '<p>Tu código es <b>123456</b>.</p><img src="cid:logo" alt="Logo">',
  text: 'Tu código es 123456.',
  logoPng: logo,
};
const logger = { info: () => undefined } as unknown as FastifyBaseLogger;

describe('mail transport', () => {
  let smtp: TestSmtpServer | undefined;
  afterEach(async () => {
    await smtp?.stop();
    smtp = undefined;
  });

  it('sends the whole message over SMTP, with the logo inline', async () => {
    smtp = await startSmtpServer();
    const transport = createMailTransport(smtp.url, os.tmpdir(), logger);
    await transport.send(mail);
    transport.close();
    const received = await smtp.waitFor('ana@expositor.test');
    expect(received.to).toEqual(['ana@expositor.test']);
    expect(received.from).toBe('premios@premios.test');
    expect(received.subject).toBe('Tu código de acceso: 123456');
    expect(received.text.trim()).toBe('Tu código es 123456.');
    expect(received.html).toContain('<b>123456</b>');
    expect(received.attachments).toEqual([
      { filename: 'logo.png', mimeType: 'image/png', contentId: '<logo>' },
    ]);
    expect(received.raw).toContain('Message-ID: <m-1@premios>');
  });

  it('writes the message to DATA_DIR/mail/<id>.eml without SMTP_URL', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-mail-'));
    const transport = createMailTransport(undefined, dataDir, logger);
    await transport.send(mail);
    transport.close();
    const written = fs.readFileSync(path.join(dataDir, 'mail', 'm-1.eml'), 'utf8');
    expect(written).toContain('To: ana@expositor.test');
    expect(written).toContain('Message-ID: <m-1@premios>');
    expect(written).toContain('Content-Type: image/png; name=logo.png');
    expect(written).toContain('Content-ID: <logo>');
    expect(written).toContain(logo.toString('base64').slice(0, 60));
  });
});
