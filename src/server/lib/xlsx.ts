import { PassThrough } from 'node:stream';
import { XML_INVALID_CHARACTER } from '../../shared/schemas/common.ts';

export const XLSX_CONTENT_TYPE =
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Excel's built-in "Text" number format: the cell stays text when someone edits it. */
export const TEXT_FORMAT = '@';

const XML_INVALID_CHARACTERS = new RegExp(XML_INVALID_CHARACTER.source, 'gu');

/**
 * Text without the characters XML 1.0 cannot hold. Text stored before they were refused may still
 * hold one; the cell drops it rather than make the whole file unreadable.
 */
export const xmlSafeText = (text: string) => text.replace(XML_INVALID_CHARACTERS, '');

const xmlSafe = (value: string | number) =>
  typeof value === 'string' ? xmlSafeText(value) : value;

/**
 * One-sheet workbook, written by exceljs's streaming writer. Every value from a form is written as a
 * shared string with the Text format, never as a formula or a number: a name like "=HYPERLINK(…)"
 * stays inert, and fiscal ids and phones keep their leading zeros.
 */
export async function writeWorkbook(
  sheetName: string,
  headers: string[],
  rows: (string | number)[][],
  /** Columns of figures (points, counts), which keep Excel's number format. */
  numericHeaders: readonly string[] = [],
): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  // exceljs takes a third of a second to load: only exports pay for it, not every start.
  const { default: ExcelJS } = await import('exceljs');
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useSharedStrings: true,
    useStyles: true,
  });
  const sheet = writer.addWorksheet(sheetName);
  sheet.columns = headers.map((header) => ({
    header,
    width: Math.max(12, header.length + 2),
    style: numericHeaders.includes(header) ? {} : { numFmt: TEXT_FORMAT },
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (const row of rows) sheet.addRow(row.map(xmlSafe)).commit();
  sheet.commit();
  await writer.commit();
  await finished;
  return Buffer.concat(chunks);
}

/** Characters no file system accepts in a name (Windows is the strictest), and control codes. */
// eslint-disable-next-line no-control-regex -- control codes are matched on purpose: they are unsafe in file names
const UNSAFE_IN_FILE_NAME = /[/\\:*?"<>|\u0000-\u001f\u007f]/g;

/** A file name every operating system accepts; accents are kept. */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(UNSAFE_IN_FILE_NAME, '_')
    .replace(/\s+/g, ' ')
    .trim();
  const dot = cleaned.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [cleaned.slice(0, dot), cleaned.slice(dot)] : [cleaned, ''];
  // Windows drops trailing dots and spaces of the stem; long names break some unzip tools.
  const trimmedStem = stem.slice(0, 150).replace(/[. ]+$/, '') || 'export';
  return `${trimmedStem}${extension}`;
}

/** RFC 5987 value-chars: encodeURIComponent leaves ' ( ) * alone, which attr-char excludes. */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * `attachment` with an ASCII fallback (accents dropped, anything else replaced) for old clients and
 * the exact UTF-8 name in `filename*` (RFC 6266 / RFC 5987) for everyone else.
 */
export function contentDisposition(fileName: string): string {
  const safe = safeFileName(fileName);
  const ascii = safe
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/[%"\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(safe)}`;
}
