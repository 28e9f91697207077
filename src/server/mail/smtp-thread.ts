/**
 * The SMTP thread (see `smtpThreadTransport` in transport.ts): composes each posted message and
 * sends it through its own pooled SMTP connections, answering with the outcome.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { smtpSender, type SmtpMessage, type SmtpReply, type SmtpThreadData } from './transport.ts';

const port = parentPort;
if (port) {
  const sender = smtpSender((workerData as SmtpThreadData).smtpUrl);
  port.on('message', (message: SmtpMessage | 'close') => {
    if (message === 'close') {
      sender.close();
      port.close();
      return;
    }
    sender.send(message.mail).then(
      () => port.postMessage({ id: message.id, ok: true } satisfies SmtpReply),
      (error: unknown) => {
        const { responseCode, response, code } = error as Record<string, unknown>;
        port.postMessage({
          id: message.id,
          ok: false,
          failure: {
            message: error instanceof Error ? error.message : String(error),
            ...(typeof responseCode === 'number' ? { responseCode } : {}),
            ...(typeof response === 'string' ? { response } : {}),
            ...(typeof code === 'string' ? { code } : {}),
          },
        } satisfies SmtpReply);
      },
    );
  });
}
