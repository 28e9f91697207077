import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** What a zip archive may unpack to before any of it is inflated. */
export interface ZipLimits {
  /** Most entries the directory may list. */
  maxEntries: number;
  /** Most bytes all entries together may unpack to, as the directory declares them. */
  maxUnpackedBytes: number;
  /** Largest unpacked ÷ packed ratio of an entry bigger than `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

/** The archive's directory declares more than the limits allow: it is refused unread. */
export class ZipLimitError extends Error {}

export interface BoundedZip {
  has(name: string): boolean;
  /**
   * The inflated bytes of an entry, streamed. The stream fails as soon as it yields more than the
   * directory declared (yauzl's `validateEntrySizes`), so a directory that lies cannot make the
   * limits checked on it meaningless.
   */
  open(name: string): Promise<Readable>;
  close(): void;
}

/**
 * Opens a zip archive held in memory after checking, from its central directory alone, that it
 * stays within `limits`: how many entries, how many bytes they unpack to in total, and how much
 * each one is compressed (a decompression bomb packs hundreds of megabytes into a few kilobytes).
 * Throws ZipLimitError when it does not, and yauzl's error when the bytes are not a zip archive.
 */
export async function openBoundedZip(bytes: Buffer, limits: ZipLimits): Promise<BoundedZip> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  try {
    if (zip.entryCount > limits.maxEntries) throw new ZipLimitError('too many entries');
    const entries = new Map<string, yauzl.Entry>();
    let unpacked = 0;
    for await (const entry of zip.eachEntry()) {
      unpacked += entry.uncompressedSize;
      if (unpacked > limits.maxUnpackedBytes) throw new ZipLimitError('unpacks too large');
      if (
        entry.uncompressedSize > limits.ratioFloorBytes &&
        entry.uncompressedSize > limits.maxRatio * Math.max(entry.compressedSize, 1)
      ) {
        throw new ZipLimitError('compressed too much');
      }
      // A name listed twice is read as its first entry, as spreadsheet programs do.
      if (!entries.has(entry.fileName)) entries.set(entry.fileName, entry);
    }
    return {
      has: (name) => entries.has(name),
      open: async (name) => {
        const entry = entries.get(name);
        if (!entry) throw new Error(`no entry ${name}`);
        return zip.openReadStreamPromise(entry);
      },
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}
