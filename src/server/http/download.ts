import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../lib/xlsx.ts';

/**
 * Sends a file to save (`attachment`, with its name in every operating system's form). Downloads
 * carry personal data, so no shared cache keeps them unless the caller says otherwise.
 */
export function sendDownload(
  reply: FastifyReply,
  fileName: string,
  mediaType: string,
  /** A stream is sent as it is produced (a large workbook). */
  body: Buffer | Readable,
  cacheControl = 'private, no-store',
): FastifyReply {
  return reply
    .header('content-type', mediaType)
    .header('content-disposition', contentDisposition(fileName))
    .header('cache-control', cacheControl)
    .send(body);
}
