import fs from 'node:fs/promises';
import * as api from '../../../shared/api/results.ts';
import { implement, type Route } from '../../http/route.ts';
import { sendDownload } from '../../http/download.ts';
import { notFound } from '../../lib/errors.ts';
import { projectFile } from '../../paths.ts';

/** The built manual, committed to the repository (`npm run manual` regenerates it). */
export const MANUAL_FILE = projectFile('docs/manual/instructivo.pdf');
export const MANUAL_FILE_NAME = 'Instructivo Premios.pdf';

/** "Descargar Instructivo": the manual as a PDF, for any signed-in user. */
export const manualRoutes: Route[] = [
  implement(api.manual, async ({ reply }) => {
    const pdf = await fs.readFile(MANUAL_FILE).catch(() => null);
    if (!pdf) throw notFound();
    return sendDownload(
      reply,
      MANUAL_FILE_NAME,
      api.manual.response.mediaType,
      pdf,
      'private, max-age=3600',
    );
  }),
];
