import path from 'node:path';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import {
  ROSTER_MAX_CELL_CHARS,
  ROSTER_MAX_PACKING_RATIO,
  ROSTER_MAX_UNPACKED_BYTES,
  type RosterFileErrorCode,
} from '../../shared/roster-messages.ts';
import { openBoundedZip, ZipLimitError, type BoundedZip } from './bounded-zip.ts';

/** A sheet row as read: its number in the sheet and its cell texts by column (0 = A). */
export interface SheetRow {
  row: number;
  cells: string[];
}

export interface SheetLimits {
  /** Rows holding a value to read at most; reading stops at the next one. */
  maxRows: number;
  /** Row elements (blank ones included) to read at most. */
  maxLines: number;
  /** A value in a later column refuses the file. */
  maxColumns: number;
}

export type SheetResult =
  { ok: true; rows: SheetRow[]; stoppedEarly: boolean } | { ok: false; code: RosterFileErrorCode };

const ZIP_LIMITS = {
  maxEntries: 1000,
  maxUnpackedBytes: ROSTER_MAX_UNPACKED_BYTES,
  maxRatio: ROSTER_MAX_PACKING_RATIO,
  ratioFloorBytes: 1024 * 1024,
};

/**
 * A cell's text as kept: trimmed and, past ROSTER_MAX_CELL_CHARS, cut there and ending in "…".
 * The cut is above every field's own limit, so a cut cell always fails its field's rule (it is
 * never stored cut), and it bounds what the preview echoes. A fresh copy: a slice would keep the
 * whole huge text alive.
 */
export function cellText(raw: string): string {
  const text = raw.trim();
  return text.length <= ROSTER_MAX_CELL_CHARS ? text : cut(text);
}

function cut(text: string): string {
  let end = ROSTER_MAX_CELL_CHARS;
  // Never keep half of a character outside the Basic Multilingual Plane.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return Buffer.from(`${text.slice(0, end)}…`, 'utf8').toString('utf8');
}

/**
 * A cell's text collected as the parser hands it over, no further than it can be kept: leading
 * whitespace is skipped and, past ROSTER_MAX_CELL_CHARS, the rest is not collected and the cell
 * ends in "…" (so it fails every field's length rule, as the whole text would).
 */
class CellText {
  private text = '';
  private full = false;
  add(chunk: string): void {
    if (this.full) return;
    this.text += this.text === '' ? chunk.trimStart() : chunk;
    if (this.text.length > ROSTER_MAX_CELL_CHARS) {
      this.full = true;
      this.text = this.text.slice(0, ROSTER_MAX_CELL_CHARS);
    }
  }
  /** The text as kept (see cellText); a cell cut while collected always ends in "…". */
  value(): string {
    return this.full ? cut(this.text) : cellText(this.text);
  }
  reset(): void {
    this.text = '';
    this.full = false;
  }
}

/** A cell before the shared strings are looked up: its text, or the index of its shared string. */
type RawCell = string | { shared: number };
type RawRow = { row: number; cells: RawCell[] };

/**
 * The first sheet of an .xlsx, read within bounds. The zip's directory is checked before anything
 * is inflated (bounded-zip.ts); the sheet is then streamed through a SAX parser and reading stops
 * at `maxRows`; only the shared strings those rows use are kept, each cut (see cellText). Inflating
 * runs off the main thread and parsing goes one chunk at a time, so other requests are answered
 * meanwhile. Reading the parts ourselves (exceljs loads the whole workbook before giving a row)
 * is what makes the bounds hold.
 */
export async function readFirstSheet(bytes: Uint8Array, limits: SheetLimits): Promise<SheetResult> {
  let zip: BoundedZip;
  try {
    zip = await openBoundedZip(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
      ZIP_LIMITS,
    );
  } catch (error) {
    return {
      ok: false,
      code: error instanceof ZipLimitError ? 'unpackedTooLarge' : 'unsupportedType',
    };
  }
  try {
    const sheetPath = await firstSheetPath(zip);
    if (sheetPath === null) return { ok: false, code: 'unsupportedType' };
    if (!zip.has(sheetPath)) return { ok: true, rows: [], stoppedEarly: false };
    const sheet = await readSheet(zip, sheetPath, limits);
    if (!sheet.ok) return sheet;
    const needed = new Set<number>();
    for (const row of sheet.rows) {
      for (const cell of row.cells) if (typeof cell === 'object') needed.add(cell.shared);
    }
    const shared = await readSharedStrings(zip, needed);
    const rows = sheet.rows.map(({ row, cells }) => ({
      row,
      cells: Array.from(cells, (cell) =>
        cell === undefined ? '' : typeof cell === 'string' ? cell : (shared.get(cell.shared) ?? ''),
      ),
    }));
    return { ok: true, rows, stoppedEarly: sheet.stoppedEarly };
  } catch {
    // Not well-formed XML, an entry that inflates to more than its directory said, a broken
    // deflate stream: a file we cannot read.
    return { ok: false, code: 'unsupportedType' };
  } finally {
    zip.close();
  }
}

/** The tag's name without its namespace prefix (`x:row` is a `row`). */
const localName = (tag: SaxesTagPlain) => tag.name.slice(tag.name.indexOf(':') + 1);

/** An attribute by its local name, whatever prefix the file gave it (`r:id`). */
function attribute(tag: SaxesTagPlain, name: string): string | undefined {
  for (const [key, value] of Object.entries(tag.attributes)) {
    if (key === name || key.endsWith(`:${name}`)) return value;
  }
  return undefined;
}

/**
 * Streams an entry through a SAX parser until it ends or `finished()` says so (the stream is then
 * destroyed, nothing more is inflated). One chunk at a time, each awaited: other requests run.
 */
async function parseEntry(
  zip: BoundedZip,
  name: string,
  listen: (parser: SaxesParser) => void,
  finished: () => boolean,
): Promise<void> {
  const stream = await zip.open(name);
  stream.setEncoding('utf8');
  const parser = new SaxesParser();
  listen(parser);
  for await (const chunk of stream) {
    parser.write(chunk as string);
    if (finished()) return;
  }
  parser.close();
}

/** The part the workbook lists first, by its relationship (not necessarily `sheet1.xml`). */
async function firstSheetPath(zip: BoundedZip): Promise<string | null> {
  const workbookPath = 'xl/workbook.xml';
  const relsPath = 'xl/_rels/workbook.xml.rels';
  if (!zip.has(workbookPath) || !zip.has(relsPath)) return null;
  let relationId: string | undefined;
  let sheetsSeen = false;
  await parseEntry(
    zip,
    workbookPath,
    (parser) =>
      parser.on('opentag', (tag) => {
        if (localName(tag) === 'sheets') sheetsSeen = true;
        if (localName(tag) === 'sheet' && relationId === undefined)
          relationId = attribute(tag, 'id');
      }),
    () => relationId !== undefined,
  );
  if (relationId === undefined) return sheetsSeen ? '' : null;
  let target: string | undefined;
  await parseEntry(
    zip,
    relsPath,
    (parser) =>
      parser.on('opentag', (tag) => {
        if (localName(tag) === 'Relationship' && attribute(tag, 'Id') === relationId) {
          target = attribute(tag, 'Target');
        }
      }),
    () => target !== undefined,
  );
  if (target === undefined) return null;
  return target.startsWith('/')
    ? target.slice(1)
    : path.posix.normalize(path.posix.join('xl', target));
}

/** "AB12" → 27: the column of a cell reference, 0 for A. */
function columnOf(reference: string): number {
  let column = 0;
  for (const char of reference) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column - 1;
}

type SheetRead =
  { ok: true; rows: RawRow[]; stoppedEarly: boolean } | { ok: false; code: RosterFileErrorCode };

/**
 * The rows of a sheet that hold a value, each cell as its text (see cellText) or its shared
 * string's index. A row whose only values are shared strings counts as holding a value even when
 * they are blank: Excel does not store a blank shared string for an empty cell.
 */
async function readSheet(zip: BoundedZip, name: string, limits: SheetLimits): Promise<SheetRead> {
  const rows: RawRow[] = [];
  let lines = 0;
  let rowNumber = 0;
  let cells: RawCell[] = [];
  let column = -1;
  let type = 'n';
  const text = new CellText();
  let inValue = false;
  let inInlineText = false;
  let inPhonetic = false;
  let hasValue = false;
  // Set by the parser's callbacks, which the compiler does not see run.
  let outcome = 'reading' as 'reading' | 'stopped' | 'tooManyColumns';
  await parseEntry(
    zip,
    name,
    (parser) => {
      parser.on('opentag', (tag) => {
        if (outcome !== 'reading') return;
        switch (localName(tag)) {
          case 'row': {
            lines += 1;
            if (lines > limits.maxLines) outcome = 'stopped';
            const r = Number(attribute(tag, 'r'));
            rowNumber = Number.isInteger(r) && r > 0 ? r : rowNumber + 1;
            cells = [];
            column = -1;
            break;
          }
          case 'c': {
            const reference = attribute(tag, 'r');
            column = reference ? columnOf(reference) : column + 1;
            type = attribute(tag, 't') ?? 'n';
            text.reset();
            hasValue = false;
            break;
          }
          case 'v':
            inValue = true;
            hasValue = true;
            break;
          case 't':
            inInlineText = true;
            hasValue = true;
            break;
          case 'rPh':
            inPhonetic = true;
            break;
        }
      });
      const addText = (chunk: string) => {
        if (outcome === 'reading' && (inValue || (inInlineText && !inPhonetic))) text.add(chunk);
      };
      parser.on('text', addText);
      parser.on('cdata', addText);
      parser.on('closetag', (tag) => {
        if (outcome !== 'reading') return;
        switch (localName(tag)) {
          case 'v':
            inValue = false;
            break;
          case 't':
            inInlineText = false;
            break;
          case 'rPh':
            inPhonetic = false;
            break;
          case 'c': {
            if (!hasValue || column < 0) break;
            if (column >= limits.maxColumns) {
              outcome = 'tooManyColumns';
              break;
            }
            cells[column] =
              type === 's' ? { shared: Number(text.value()) } : cellValue(type, text.value());
            break;
          }
          case 'row':
            if (cells.some((cell) => typeof cell === 'object' || cell !== '')) {
              rows.push({ row: rowNumber, cells });
              if (rows.length >= limits.maxRows) outcome = 'stopped';
            }
            break;
        }
      });
    },
    () => outcome !== 'reading',
  );
  if (outcome === 'tooManyColumns') return { ok: false, code: 'tooManyColumns' };
  return { ok: true, rows, stoppedEarly: outcome === 'stopped' };
}

/** The text Excel shows for a value that is not a shared string. */
function cellValue(type: string, text: string): string {
  if (type === 'b') return text === '1' ? 'true' : 'false';
  return text;
}

/** The shared strings with the given indexes, each cut (see cellText); reading stops after the last. */
async function readSharedStrings(
  zip: BoundedZip,
  needed: ReadonlySet<number>,
): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  const name = 'xl/sharedStrings.xml';
  if (needed.size === 0 || !zip.has(name)) return found;
  let last = 0;
  for (const wanted of needed) last = Math.max(last, wanted);
  let index = -1;
  const text = new CellText();
  let inText = false;
  let inPhonetic = false;
  await parseEntry(
    zip,
    name,
    (parser) => {
      parser.on('opentag', (tag) => {
        const tagName = localName(tag);
        if (tagName === 'si') {
          index += 1;
          text.reset();
        } else if (tagName === 't') inText = true;
        else if (tagName === 'rPh') inPhonetic = true;
      });
      const addText = (chunk: string) => {
        if (inText && !inPhonetic && needed.has(index)) text.add(chunk);
      };
      parser.on('text', addText);
      parser.on('cdata', addText);
      parser.on('closetag', (tag) => {
        const tagName = localName(tag);
        if (tagName === 't') inText = false;
        else if (tagName === 'rPh') inPhonetic = false;
        else if (tagName === 'si' && needed.has(index)) found.set(index, text.value());
      });
    },
    () => index > last,
  );
  return found;
}
