import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Db } from '../../db/connection.ts';
import { projectFile } from '../../paths.ts';

const defaultLogoPng = fs.readFileSync(projectFile('src/server/assets/default-logo.png'));
const defaultLogoEtag = `"default-${createHash('sha256').update(defaultLogoPng).digest('hex').slice(0, 16)}"`;

export interface Logo {
  png: Uint8Array;
  etag: string;
}

/** The uploaded logo, or the built-in default when none was uploaded. */
export async function loadLogo(db: Db): Promise<Logo> {
  const row = await db
    .selectFrom('branding')
    .select(['logo_png', 'etag'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return row
    ? { png: row.logo_png, etag: row.etag }
    : { png: defaultLogoPng, etag: defaultLogoEtag };
}
