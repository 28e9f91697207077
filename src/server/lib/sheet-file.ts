import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { finished } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse as parseCsvStream, type CastingFunction } from 'csv-parse';
import { parse as parseCsv } from 'csv-parse/sync';
import { ROSTER_MAX_COLUMNS } from '../../shared/roster-messages.ts';
import {
  cellText,
  readFirstSheet,
  type SheetLimits,
  type SheetResult,
  type SheetRow,
} from './sheet-xlsx.ts';

/*
 * Reading an import file (the exhibitor roster, the reseller registry): a `.csv` (comma or
 * semicolon, UTF-8 with or without BOM, or Windows-1252) or an `.xlsx` (its first sheet), as rows
 * of trimmed cell texts, bounded whatever the file holds (bytes, rows, columns, cell length, what an
 * .xlsx unpacks to) and yielding to other requests as it goes (docs/decisions/0012).
 */

/** An uploaded file: the name it had on the user's computer (its extension says the format). */
export interface SheetFile {
  fileName: string;
  bytes: Uint8Array;
}

export type { SheetLimits, SheetResult, SheetRow };

/**
 * The non-blank rows of the file, or why it cannot be read (`tooLarge`, `unsupportedType`,
 * `empty`, `tooManyColumns`, `unpackedTooLarge`). `stoppedEarly`: reading stopped at
 * `limits.maxRows` rows, so the file has at least that many.
 */
export async function readSheetFile(
  file: SheetFile,
  limits: SheetLimits & { maxBytes: number; csvChunkBytes?: number },
): Promise<SheetResult> {
  if (file.bytes.length > limits.maxBytes) return { ok: false, code: 'tooLarge' };
  const extension = path.extname(file.fileName).toLowerCase();
  if (extension !== '.csv' && extension !== '.xlsx') return { ok: false, code: 'unsupportedType' };
  if (file.bytes.length === 0) return { ok: false, code: 'empty' };
  // An .xlsx is a zip archive; a text file is neither a zip nor holds NUL bytes. A file renamed
  // to the other extension is refused rather than read as garbage.
  const isZip = startsWith(file.bytes, ZIP_SIGNATURE);
  return extension === '.xlsx'
    ? isZip
      ? await readFirstSheet(file.bytes, limits)
      : { ok: false, code: 'unsupportedType' }
    : isZip || file.bytes.includes(0)
      ? { ok: false, code: 'unsupportedType' }
      : await csvSheet(file.bytes, limits, limits.csvChunkBytes ?? CSV_CHUNK_BYTES);
}

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/**
 * UTF-8 when the bytes are valid UTF-8 (its BOM dropped), else Windows-1252, which is what Excel in
 * Spanish writes when it saves "CSV (delimitado por comas)". Windows-1252 text with accents is
 * almost never valid UTF-8, so the check tells them apart.
 */
function textDecoder(bytes: Uint8Array): TextDecoder {
  return new TextDecoder(isUtf8(bytes) ? 'utf-8' : 'windows-1252');
}

const CSV_DELIMITERS = [';', ','] as const;

/**
 * How much of the file is looked at to pick the delimiter: the header with room to spare (it is
 * short, and blank lines before it are few). csv-parse takes long on one huge field.
 */
const HEADER_SEARCH_BYTES = 4 * 1024;

/** Refuses, as csv-parse reads them, the fields past ROSTER_MAX_COLUMNS: parsing stops there. */
class TooManyColumns extends Error {}
const boundedColumns: CastingFunction = (value, context) => {
  if (context.index >= ROSTER_MAX_COLUMNS) throw new TooManyColumns();
  return value;
};

const CSV_OPTIONS = {
  bom: true,
  // Blank lines stay as records so that each record's index is its row number in Excel.
  skip_empty_lines: false,
  relax_column_count: true,
  relax_quotes: true,
  cast: boundedColumns,
};

/**
 * The delimiter that splits the header into more columns. Excel writes semicolons where the decimal
 * separator is a comma, as in Spanish, and commas elsewhere; a header never holds the other one.
 */
function detectDelimiter(text: string): string {
  const header = text.split(/\r\n|\n|\r/).find((line) => line.trim() !== '') ?? '';
  let best: string = CSV_DELIMITERS[1];
  let bestCount = 0;
  for (const delimiter of CSV_DELIMITERS) {
    const count = headerColumns(header, delimiter);
    if (count > bestCount) {
      best = delimiter;
      bestCount = count;
    }
  }
  return best;
}

function headerColumns(line: string, delimiter: string): number {
  try {
    const records = parseCsv(line, { ...CSV_OPTIONS, delimiter }) as string[][];
    return records[0]?.length ?? 0;
  } catch (error) {
    return error instanceof TooManyColumns ||
      (error as { cause?: unknown }).cause instanceof TooManyColumns
      ? ROSTER_MAX_COLUMNS + 1
      : 0;
  }
}

/**
 * Bytes decoded and parsed at a time; between two, other requests get their turn. An import of
 * larger files may take bigger steps (`csvChunkBytes`).
 */
const CSV_CHUNK_BYTES = 4 * 1024;

/**
 * The non-blank records of a CSV file, decoded and parsed a chunk at a time and no further than
 * the limits need; refused when it is not well-formed CSV (an unclosed quote) or has too many
 * columns.
 */
async function csvSheet(
  bytes: Uint8Array,
  limits: SheetLimits,
  chunkBytes: number,
): Promise<SheetResult> {
  const decoder = textDecoder(bytes);
  const start = new TextDecoder(decoder.encoding).decode(bytes.subarray(0, HEADER_SEARCH_BYTES));
  const parser = parseCsvStream({ ...CSV_OPTIONS, delimiter: detectDelimiter(start) });
  const rows: SheetRow[] = [];
  let lines = 0;
  let stoppedEarly = false;
  let failure: unknown = null;
  parser.on('error', (error) => {
    failure = error;
  });
  parser.on('data', (record: string[]) => {
    if (stoppedEarly) return;
    lines += 1;
    if (lines > limits.maxLines) {
      stoppedEarly = true;
      return;
    }
    const cells = record.map(cellText);
    if (!cells.some((cell) => cell !== '')) return;
    rows.push({ row: lines, cells });
    if (rows.length >= limits.maxRows) stoppedEarly = true;
  });
  for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
    const chunk = bytes.subarray(offset, offset + chunkBytes);
    parser.write(decoder.decode(chunk, { stream: true }));
    await nextTurn();
    if (stoppedEarly || failure) break;
  }
  if (!stoppedEarly && !failure) {
    parser.end(decoder.decode());
    await finished(parser).catch((error: unknown) => {
      failure = error;
    });
  } else {
    parser.destroy();
  }
  if (failure) {
    const tooWide =
      failure instanceof TooManyColumns ||
      (failure as { cause?: unknown }).cause instanceof TooManyColumns;
    return { ok: false, code: tooWide ? 'tooManyColumns' : 'unsupportedType' };
  }
  return { ok: true, rows, stoppedEarly };
}

/** A header as compared: no accents, lower case, spaces trimmed and collapsed. */
export function headerKey(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
