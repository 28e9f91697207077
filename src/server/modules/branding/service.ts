import { createHash } from 'node:crypto';
import type { AppDeps } from '../../deps.ts';
import { MSG } from '../../../shared/messages.ts';
import type { SignedInAdmin } from '../../../shared/signed-in.ts';
import { recordAudit } from '../../lib/audit.ts';
import { badRequest } from '../../lib/errors.ts';
import { iso } from '../../lib/time.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * True when the bytes are a PNG: the 8-byte signature followed by the IHDR chunk that must come
 * first. The file name and the declared type are the sender's say-so; the content is not.
 */
export function isPng(bytes: Buffer): boolean {
  return (
    bytes.length >= 33 &&
    bytes.subarray(0, 8).equals(PNG_SIGNATURE) &&
    bytes.readUInt32BE(8) === 13 &&
    bytes.subarray(12, 16).toString('latin1') === 'IHDR'
  );
}

/** Wider or taller logos are refused: a few KB of PNG can decode to gigabytes of pixels. */
export const LOGO_MAX_SIDE_PX = 2000;
/** The stored logo is attached to every email: it must stay small. */
export const LOGO_STORED_MAX_BYTES = 200 * 1024;
/** Sizes tried, largest first, until the re-encoded logo fits; shown at most 240 px wide. */
const LOGO_ENCODINGS = [
  { side: 600, palette: false },
  { side: 600, palette: true },
  { side: 400, palette: true },
  { side: 256, palette: true },
] as const;

/**
 * Checks the PNG's declared size from its header before decoding anything, then re-encodes it
 * (bounded size, no extra chunks or trailing bytes from the upload) so that what every email
 * carries is a clean image under 200 KB.
 */
export async function prepareLogo(bytes: Buffer): Promise<Buffer> {
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width === 0 || height === 0) throw badRequest(MSG.logoNotPng, 'logo');
  if (width > LOGO_MAX_SIDE_PX || height > LOGO_MAX_SIDE_PX) {
    throw badRequest(MSG.logoTooWide, 'logo');
  }
  // sharp loads a native library: only uploads pay for it, not every start.
  const { default: sharp } = await import('sharp');
  for (const { side, palette } of LOGO_ENCODINGS) {
    let png: Buffer;
    try {
      png = await sharp(bytes, {
        limitInputPixels: LOGO_MAX_SIDE_PX * LOGO_MAX_SIDE_PX,
        failOn: 'error',
      })
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
        .png({ compressionLevel: 9, palette })
        .toBuffer();
    } catch {
      throw badRequest(MSG.logoNotPng, 'logo');
    }
    if (png.length <= LOGO_STORED_MAX_BYTES) return png;
  }
  throw badRequest(MSG.logoNotPng, 'logo');
}

/** Replaces the programme's logo (the single branding row) and records who did it. */
export async function replaceLogo(
  deps: AppDeps,
  { admin, png }: { admin: SignedInAdmin; png: Buffer },
): Promise<{ etag: string }> {
  const now = deps.clock.now();
  const digest = createHash('sha256').update(png).digest('hex');
  const etag = `"${digest.slice(0, 32)}"`;
  const values = {
    logo_png: png,
    etag,
    updated_by: admin.adminId,
    updated_at: iso(now),
  };
  await deps.transact(async (tx) => {
    await tx
      .insertInto('branding')
      .values({ id: 1, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute();
    await recordAudit(tx, admin, now, {
      action: 'logo.replaced',
      entityType: 'branding',
      entityId: '1',
      details: { bytes: png.length, sha256: digest },
    });
  });
  return { etag };
}
