import type { FastifyRequest } from 'fastify';
import type { CatalogueMessage } from '../../shared/errors.ts';
import { MSG } from '../../shared/messages.ts';
import { AppError, badRequest } from '../lib/errors.ts';

export interface UploadedFile {
  /** The name it had on the user's computer. */
  fileName: string;
  bytes: Buffer;
}

/**
 * The one file of a multipart upload, read whole (perhaps empty), or a Spanish 4xx: no file (400
 * `noFile`), larger than `maxBytes` (413 `tooLarge`), or a body that is not valid multipart (400).
 */
export async function readUploadedFile(
  request: FastifyRequest,
  options: {
    field: string;
    maxBytes: number;
    noFile: CatalogueMessage;
    tooLarge: CatalogueMessage;
  },
): Promise<UploadedFile> {
  const noFile = () => badRequest(options.noFile, options.field);
  if (!request.isMultipart()) throw noFile();
  try {
    const file = await request.file({ limits: { fileSize: options.maxBytes } });
    if (!file) throw noFile();
    return { fileName: file.filename, bytes: await file.toBuffer() };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = String((error as { code?: unknown }).code);
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('file_too_large', {
        message: options.tooLarge,
        fields: { [options.field]: options.tooLarge },
      });
    }
    // The framework's other limits (parts, fields) keep their answers; a body the parser cannot
    // read (cut short, bad part headers, no closing boundary) is the sender's fault, not ours.
    if (code.startsWith('FST_')) throw error;
    throw badRequest(MSG.invalidUpload, options.field);
  }
}
