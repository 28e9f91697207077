import { createHash } from 'node:crypto';
import type { AppDeps } from '../../deps.ts';
import type { SessionUser } from '../../http/session.ts';
import { recordAudit } from '../../lib/audit.ts';
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

/** Replaces the programme's logo (the single branding row) and records who did it. */
export async function replaceLogo(
  deps: AppDeps,
  admin: Extract<SessionUser, { role: 'admin' }>,
  png: Buffer,
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
