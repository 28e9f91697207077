import { Readable } from 'node:stream';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { xmlSafeText } from './xlsx.ts';

/** An instant as Excel stores it: days since 1899-12-30 of the wall-clock time in a zone. */
export interface DateTimeCell {
  excelDateTime: number;
}

export type Cell = string | number | DateTimeCell;

const DAY_MS = 86_400_000;
/** 1970-01-01 as an Excel serial day (the 1900 system, with its phantom 29 February 1900). */
const UNIX_EPOCH_SERIAL = 25_569;

const wallClockFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant (ISO text) as a date cell showing its wall-clock time in `timeZone`: Excel dates
 * carry no zone, so the cell holds the time the programme's people read on their clocks.
 */
export function dateTimeCell(instant: string, timeZone: string): DateTimeCell {
  let formatter = wallClockFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    wallClockFormatters.set(timeZone, formatter);
  }
  const date = new Date(instant);
  const part = Object.fromEntries(
    formatter.formatToParts(date).map(({ type, value }) => [type, Number(value)]),
  );
  const wallClock = Date.UTC(
    part.year ?? 1970,
    (part.month ?? 1) - 1,
    part.day ?? 1,
    part.hour ?? 0,
    part.minute ?? 0,
    part.second ?? 0,
    date.getUTCMilliseconds(),
  );
  return { excelDateTime: wallClock / DAY_MS + UNIX_EPOCH_SERIAL };
}

/** One sheet of a streamed workbook: its rows are read only as the file is written. */
export interface StreamedSheet {
  name: string;
  headers: string[];
  /** Columns of figures, which keep Excel's number format; every other column is Text. */
  numericHeaders?: readonly string[];
  rows: () => AsyncIterable<Cell[]> | Iterable<Cell[]>;
}

/** How many rows a sheet holds back to size its columns: widths come before rows in the file. */
const WIDTH_SAMPLE_ROWS = 200;
/** Column widths in characters: at least a short figure's, at most what a screen shows. */
const MIN_WIDTH = 8;
const MAX_WIDTH = 60;
/** What a date cell shows, "27-11-2026 14:05", in characters. */
const DATE_TIME_CHARS = 16;

/**
 * A workbook of several sheets written while its rows are read, for exports too large to hold:
 * memory stays at one batch of rows and one compressed block. exceljs's streaming writer took
 * 12 s for 70,000 rows here, so this writes the few SpreadsheetML parts itself: inline strings
 * (no shared-strings table to keep until the end), every text cell in the Text format and never a
 * formula, figures as numbers, instants as date cells, XML-invalid characters dropped; each sheet's
 * header row frozen and filtered, its columns sized to their content.
 *
 * The zip is written forward only: each part's sizes and CRC follow its data (general-purpose
 * flag bit 3), and its data is a run of raw-deflate blocks, each ended with a sync flush so that
 * separately compressed blocks join into one valid stream, closed by an empty final block.
 */
export function streamWorkbook(sheets: StreamedSheet[]): Readable {
  return Readable.from(zip(workbookParts(sheets)), { objectMode: false });
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/**
 * Styles of styles.xml's cellXfs: 0 General (figures), 1 Text, 2 Text in bold (the header row),
 * 3 a date and time in the product's display format (custom number format 164).
 */
const STYLE_TEXT = 1;
const STYLE_HEADER = 2;
const STYLE_DATE_TIME = 3;
const DATE_TIME_FORMAT = 'd-m-yyyy hh:mm';

const escapeXml = (text: string) =>
  xmlSafeText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** A, B … Z, AA, AB …: the column part of a cell reference. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

const isDateTime = (value: Cell): value is DateTimeCell => typeof value === 'object';

function cellXml(ref: string, value: Cell, style: number): string {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return `<c r="${ref}"><v>${value}</v></c>`;
  }
  if (isDateTime(value)) {
    return Number.isFinite(value.excelDateTime)
      ? `<c r="${ref}" s="${STYLE_DATE_TIME}"><v>${value.excelDateTime}</v></c>`
      : `<c r="${ref}" s="${style}"/>`;
  }
  const text = escapeXml(String(value));
  if (text === '') return `<c r="${ref}" s="${style}"/>`;
  return `<c r="${ref}" s="${style}" t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`;
}

interface Part {
  name: string;
  content: () => AsyncIterable<string> | Iterable<string>;
}

/** Rows of XML are gathered up to this many characters before a block is compressed. */
const BLOCK_CHARS = 256 * 1024;

/** How many characters a cell shows, to size its column. */
function shownChars(value: Cell): number {
  if (isDateTime(value)) return DATE_TIME_CHARS;
  return String(value).length;
}

/**
 * A sheet's XML: the header row frozen and filtered, every column as wide as its header and the
 * widest of the first WIDTH_SAMPLE_ROWS rows (bounded), which the sheet holds back because the
 * widths precede the rows; the rest streams as it is read.
 */
async function* sheetXml(sheet: StreamedSheet): AsyncGenerator<string> {
  const numeric = new Set(sheet.numericHeaders ?? []);
  const rows = sheet.rows();
  const iterator =
    Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
  const sample: Cell[][] = [];
  let exhausted = false;
  while (sample.length < WIDTH_SAMPLE_ROWS) {
    const next = await iterator.next();
    if (next.done) {
      exhausted = true;
      break;
    }
    sample.push(next.value);
  }
  const columns = sheet.headers.map((header, index) => {
    // A bold header takes a little more room than the same characters in a cell.
    let chars = header.length + 3;
    for (const row of sample) chars = Math.max(chars, shownChars(row[index] ?? '') + 2);
    return {
      letter: columnName(index),
      numeric: numeric.has(header),
      width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, chars)),
    };
  });
  const cols = columns
    .map(
      (column, index) =>
        `<col min="${index + 1}" max="${index + 1}" width="${column.width}" customWidth="1"${
          column.numeric ? '' : ` style="${STYLE_TEXT}"`
        }/>`,
    )
    .join('');
  const views =
    '<sheetViews><sheetView workbookViewId="0">' +
    '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
    '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>' +
    '</sheetView></sheetViews>';
  let block = `${XML_HEAD}<worksheet xmlns="${MAIN_NS}">${views}<cols>${cols}</cols><sheetData>`;
  block += `<row r="1">${sheet.headers
    .map((header, index) => cellXml(`${columns[index]?.letter ?? ''}1`, header, STYLE_HEADER))
    .join('')}</row>`;
  let rowNumber = 1;
  const rowXml = (row: Cell[]) => {
    rowNumber += 1;
    let xml = `<row r="${rowNumber}">`;
    for (let index = 0; index < row.length; index += 1) {
      const letter = columns[index]?.letter ?? columnName(index);
      xml += cellXml(`${letter}${rowNumber}`, row[index] ?? '', STYLE_TEXT);
    }
    return `${xml}</row>`;
  };
  for (const row of sample.splice(0)) block += rowXml(row);
  for (;;) {
    if (block.length >= BLOCK_CHARS) {
      yield block;
      block = '';
    }
    if (exhausted) break;
    const next = await iterator.next();
    if (next.done) break;
    block += rowXml(next.value);
  }
  const lastColumn = columnName(Math.max(0, sheet.headers.length - 1));
  yield `${block}</sheetData><autoFilter ref="A1:${lastColumn}${rowNumber}"/></worksheet>`;
}

function workbookParts(sheets: StreamedSheet[]): Part[] {
  const sheetFile = (index: number) => `worksheets/sheet${index + 1}.xml`;
  const perSheet = (part: (sheet: StreamedSheet, index: number) => string) =>
    sheets.map(part).join('');
  const contentTypes =
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    perSheet(
      (_, index) =>
        `<Override PartName="/xl/${sheetFile(index)}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    ) +
    '</Types>';
  const rootRels =
    `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
    '</Relationships>';
  const workbook =
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    '<bookViews><workbookView/></bookViews><sheets>' +
    perSheet(
      (sheet, index) =>
        `<sheet name="${escapeXml(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`,
    ) +
    '</sheets></workbook>';
  const workbookRels =
    `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
    perSheet(
      (_, index) =>
        `<Relationship Id="rId${index + 1}" Type="${REL_NS}/worksheet" Target="${sheetFile(index)}"/>`,
    ) +
    `<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>` +
    '</Relationships>';
  const styles =
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
    `<numFmts count="1"><numFmt numFmtId="164" formatCode="${DATE_TIME_FORMAT}"/></numFmts>` +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
    '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>' +
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>';
  return [
    { name: '[Content_Types].xml', content: () => [contentTypes] },
    { name: '_rels/.rels', content: () => [rootRels] },
    { name: 'xl/workbook.xml', content: () => [workbook] },
    { name: 'xl/_rels/workbook.xml.rels', content: () => [workbookRels] },
    { name: 'xl/styles.xml', content: () => [styles] },
    ...sheets.map((sheet, index) => ({
      name: `xl/${sheetFile(index)}`,
      content: () => sheetXml(sheet),
    })),
  ];
}

/** 1980-01-01 00:00, the earliest DOS date: parts carry no meaningful time. */
const DOS_DATE = 0x21;
const FLAGS = 0x0808; // sizes in a data descriptor, UTF-8 names
const DEFLATE = 8;
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

async function* zip(parts: Part[]): AsyncGenerator<Buffer> {
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(FLAGS, 6);
    local.writeUInt16LE(DEFLATE, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.concat([local, name]);
    yield header;
    let crc = 0;
    let size = 0;
    let compressed = 0;
    for await (const text of part.content()) {
      const data = Buffer.from(text, 'utf8');
      if (data.length === 0) continue;
      crc = crc32(data, crc);
      size += data.length;
      const block = deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH });
      compressed += block.length;
      yield block;
    }
    compressed += FINAL_EMPTY_BLOCK.length;
    yield FINAL_EMPTY_BLOCK;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    yield descriptor;
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(FLAGS, 8);
    entry.writeUInt16LE(DEFLATE, 10);
    entry.writeUInt16LE(0, 12);
    entry.writeUInt16LE(DOS_DATE, 14);
    entry.writeUInt32LE(crc >>> 0, 16);
    entry.writeUInt32LE(compressed, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += header.length + compressed + descriptor.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield directory;
  yield end;
}
