import fs from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentDisposition, safeFileName } from '../../src/server/lib/xlsx.ts';
import { NOMINEE_HEADERS, RANKING_HEADERS } from '../../src/server/modules/ranking/export.ts';
import { MANUAL_FILE } from '../../src/server/modules/manual/routes.ts';
import type { Endpoint, InputOf } from '../../src/shared/api/define.ts';
import {
  categoryRanking,
  exportNomineeVotes,
  exportRanking,
  manual,
  nomineeVotes,
  XLSX_MEDIA_TYPE,
} from '../../src/shared/api/results.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import type { TestClient } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

/** The files of a zip archive, read from its central directory with node:zlib only. */
function unzip(archive: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const count = archive.readUInt16LE(end + 10);
  let entry = archive.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(entry) !== 0x02014b50) throw new Error('bad central directory');
    const method = archive.readUInt16LE(entry + 10);
    const compressedSize = archive.readUInt32LE(entry + 20);
    const nameLength = archive.readUInt16LE(entry + 28);
    const extraLength = archive.readUInt16LE(entry + 30);
    const commentLength = archive.readUInt16LE(entry + 32);
    const local = archive.readUInt32LE(entry + 42);
    const name = archive.toString('utf8', entry + 46, entry + 46 + nameLength);
    const dataStart =
      local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const data = archive.subarray(dataStart, dataStart + compressedSize);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    entry += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, '&');

interface RawCell {
  ref: string;
  type: string | undefined;
  style: string | undefined;
  value: string;
  hasFormula: boolean;
}

/**
 * An independent reading of the workbook's XML (no spreadsheet library): sheet names, every cell
 * of the first worksheet with its type, style and text, and the number format of each style.
 */
function readXlsxRaw(file: Buffer) {
  const files = unzip(file);
  const text = (name: string) => files.get(name)?.toString('utf8') ?? '';
  const sheetNames = [...text('xl/workbook.xml').matchAll(/<sheet [^>]*name="([^"]*)"/g)].map((m) =>
    unescapeXml(m[1] ?? ''),
  );
  const shared = [...text('xl/sharedStrings.xml').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    unescapeXml([...(m[1] ?? '').matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join('')),
  );
  const sheet = text('xl/worksheets/sheet1.xml');
  const rows: RawCell[][] = [...sheet.matchAll(/<row [^>]*>([\s\S]*?)<\/row>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<c ([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)].map((cell) => {
      const attributes = cell[1] ?? '';
      const body = cell[2] ?? '';
      const attribute = (name: string) => attributes.match(new RegExp(`${name}="([^"]*)"`))?.[1];
      const raw = body.match(/<v>([\s\S]*?)<\/v>/)?.[1] ?? '';
      const type = attribute('t');
      return {
        ref: attribute('r') ?? '',
        type,
        style: attribute('s'),
        value: type === 's' ? (shared[Number(raw)] ?? '') : unescapeXml(raw),
        hasFormula: /<f[ >]/.test(body),
      };
    }),
  );
  const styles = text('xl/styles.xml');
  const customFormats = new Map(
    [...styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)].map((m) => [
      m[1] ?? '',
      unescapeXml(m[2] ?? ''),
    ]),
  );
  const cellXfs = styles.match(/<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/)?.[1] ?? '';
  const formats = [...cellXfs.matchAll(/<xf ([^>]*?)\/?>/g)].map((xf) => {
    const id = xf[1]?.match(/numFmtId="(\d+)"/)?.[1] ?? '0';
    // 49 is Excel's built-in "@" (Text) format.
    return id === '49' ? '@' : (customFormats.get(id) ?? `builtin:${id}`);
  });
  return { sheetNames, rows, formats, sheetXml: sheet };
}

async function readWithExcelJs(file: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('data');
  const rows: unknown[][] = [];
  sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { names: workbook.worksheets.map((w) => w.name), rows };
}

const HOSTILE = ['=HYPERLINK("http://x.test","hola")', '+54 9 11', '-2+3', '@SUM(A1)', '\tTab'];

/** A download that must succeed: its response, for the bytes and the headers. */
async function download<E extends Endpoint>(client: TestClient, endpoint: E, input: InputOf<E>) {
  const outcome = await client.send(endpoint, input);
  expect(outcome.status).toBe(200);
  return outcome.response;
}

describe('exports', () => {
  const app = useTestApp();
  let eventId: string;
  const eventName = 'Premios Ñandú 2026: "IT/Partners" <sur>?';
  const consumption = () => ({ params: { eventId, category: 'consumption' as const } });
  const nominee = () => ({
    params: { eventId, category: 'consumption' as const, fiscalId: '00012345678' },
  });

  beforeAll(async () => {
    const { db } = app;
    eventId = (await seedEvent(db, { name: eventName })).id;
    const exhibitors = [];
    for (let i = 0; i < 3; i++) {
      const e = await seedExhibitor(db);
      await seedMembership(db, eventId, e.id);
      exhibitors.push(e);
    }
    const stamp = '2026-01-01T00:00:00.000Z';
    // Hostile text in every free-text column, leading zeros in fiscal id and phone.
    const row = (
      exhibitorId: string,
      order: number,
      fiscalId: string,
      name: string,
      registeredName: string,
    ) => ({
      event_id: eventId,
      exhibitor_id: exhibitorId,
      category: 'consumption' as const,
      list_order: order,
      fiscal_id: fiscalId,
      name,
      registered_name: registeredName,
      contact_name: 'Ñoño Pérez',
      contact_position: '=1+1',
      phone: '01155550000',
      email: 'contacto@reseller.test',
      location: '@Palermo',
      city: '-Córdoba',
      nominated_at: stamp,
      updated_at: stamp,
    });
    for (const [index, e] of exhibitors.entries()) {
      await db
        .insertInto('nomination_lists')
        .values({
          event_id: eventId,
          exhibitor_id: e.id,
          category: 'consumption',
          version: 1,
          updated_at: stamp,
        })
        .execute();
      await db
        .insertInto('nominations')
        .values([
          row(e.id, 1, '00012345678', `Común ${index}`, 'Común S.A.'),
          row(e.id, 2, `2000000000${index}`, HOSTILE[index] ?? '', HOSTILE[3 + (index % 2)] ?? ''),
        ])
        .execute();
    }
  });

  it('exports the ranking as {eventName}-{category}.xlsx with sheet data, the header row and the page rows', async () => {
    const page = await app.api.call(categoryRanking, { ...consumption(), query: {} });
    expect(page.rows).toHaveLength(4);
    const response = await download(app.api, exportRanking, consumption());
    expect(response.headers['content-type']).toBe(XLSX_MEDIA_TYPE);
    const expectedName = 'Premios Ñandú 2026_ _IT_Partners_ _sur__-consumption.xlsx';
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Premios Nandu 2026_ _IT_Partners_ _sur__-consumption.xlsx"; filename*=UTF-8''${encodeURIComponent(expectedName)}`,
    );

    const expectedRows = page.rows.map((r) => [
      r.name,
      r.registeredName,
      r.fiscalId,
      r.contactName,
      r.contactPosition,
      r.phone,
      r.email,
      r.location,
      r.city,
      r.points,
    ]);
    const viaExcelJs = await readWithExcelJs(response.rawPayload);
    expect(viaExcelJs.names).toEqual(['data']);
    expect(viaExcelJs.rows).toEqual([RANKING_HEADERS, ...expectedRows]);

    const raw = readXlsxRaw(response.rawPayload);
    expect(raw.sheetNames).toEqual(['data']);
    expect(raw.rows.map((cells) => cells.map((c) => c.value))).toEqual([
      RANKING_HEADERS,
      ...expectedRows.map((cells) => cells.map(String)),
    ]);
    expect(RANKING_HEADERS).toEqual([
      'Nombre del reseller',
      'Razón social',
      'ID fiscal',
      'Nombre del contacto',
      'Cargo del contacto',
      'Teléfono',
      'Email',
      'Localidad',
      'Ciudad',
      'Puntos',
    ]);
  });

  it('never writes a formula: hostile text stays a text cell in the Text format; ids keep their zeros', async () => {
    const raw = readXlsxRaw(await app.api.call(exportRanking, consumption()));
    expect(raw.sheetXml).not.toMatch(/<f[ >]/);
    const body = raw.rows.slice(1);
    for (const cells of body) {
      for (const cell of cells.slice(0, 9)) {
        expect(cell.hasFormula).toBe(false);
        expect(cell.type).toBe('s');
        expect(raw.formats[Number(cell.style ?? 0)]).toBe('@');
      }
      // Puntos is a number.
      expect(cells[9]?.type).toBeUndefined();
    }
    const values = body.flatMap((cells) => cells.map((c) => c.value));
    for (const hostile of HOSTILE) expect(values).toContain(hostile);
    expect(values).toContain('00012345678');
    expect(values).toContain('01155550000');
    expect(values).toContain('=1+1');
  });

  it('exports the votes for a nominee as {fiscalId}-resultados.xlsx without ID fiscal and Puntos', async () => {
    const { votes } = await app.api.call(nomineeVotes, nominee());
    expect(votes.map((v) => v.name).sort()).toEqual(['Común 0', 'Común 1', 'Común 2']);
    expect(votes).toHaveLength(3);
    const response = await download(app.api, exportNomineeVotes, nominee());
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="00012345678-resultados.xlsx"; filename*=UTF-8''00012345678-resultados.xlsx`,
    );
    expect(NOMINEE_HEADERS).toEqual(
      RANKING_HEADERS.filter((h) => h !== 'ID fiscal' && h !== 'Puntos'),
    );
    const viaExcelJs = await readWithExcelJs(response.rawPayload);
    expect(viaExcelJs.names).toEqual(['data']);
    expect(viaExcelJs.rows[0]).toEqual(NOMINEE_HEADERS);
    expect(viaExcelJs.rows.slice(1).map((r) => [r[0], r[4]])).toEqual(
      votes.map((v) => [v.name, v.phone]),
    );
    const raw = readXlsxRaw(response.rawPayload);
    expect(raw.rows).toHaveLength(4);
    expect(raw.sheetXml).not.toMatch(/<f[ >]/);
  });

  it('requires an administrator and an existing event', async () => {
    const value = (id: string) => ({ params: { eventId: id, category: 'value' as const } });
    expect((await app.signedOut.fail(exportRanking, value(eventId))).status).toBe(401);
    const missing = await app.api.fail(
      exportRanking,
      value('00000000-0000-4000-8000-000000000000'),
    );
    expect(missing.status).toBe(404);
    const empty = await app.api.call(exportRanking, value(eventId));
    expect((await readWithExcelJs(empty)).rows).toEqual([RANKING_HEADERS]);
  });

  it('makes file names safe on every operating system and encodes them per RFC 5987', () => {
    expect(safeFileName('a/b\\c:d*e?f"g<h>i|j.xlsx')).toBe('a_b_c_d_e_f_g_h_i_j.xlsx');
    expect(safeFileName('Evento de año. .xlsx')).toBe('Evento de año.xlsx');
    expect(safeFileName('  \u0000\u001f.xlsx')).toBe('__.xlsx');
    expect(safeFileName(' . .xlsx')).toBe('export.xlsx');
    expect(contentDisposition("Año (d'Or)*.xlsx")).toBe(
      `attachment; filename="Ano (d'Or)_.xlsx"; filename*=UTF-8''A%C3%B1o%20%28d%27Or%29_.xlsx`,
    );
  });

  it('serves the instruction manual to any signed-in user only', async () => {
    expect((await app.signedOut.fail(manual, {})).status).toBe(401);
    const exhibitor = await seedExhibitor(app.db);
    const response = await download(await app.exhibitor(exhibitor.id), manual, {});
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain(
      "filename*=UTF-8''Instructivo%20Premios.pdf",
    );
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(response.rawPayload.equals(fs.readFileSync(MANUAL_FILE))).toBe(true);
  });
});
