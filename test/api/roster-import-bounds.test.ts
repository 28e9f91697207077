/**
 * Issue 30, S2: import files shaped to take the server down (a decompression bomb, 400,000 rows, a
 * 5 MB line of separators) are each refused with a Spanish 400 in bounded time and memory, store
 * nothing, and the server keeps answering other requests meanwhile. Sent to a real listening
 * server, with /healthz asked in parallel the whole time.
 */
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CSRF_HEADER, CSRF_VALUE } from '../../src/server/app.ts';
import {
  readRosterFile,
  type RosterFileResult,
} from '../../src/server/modules/exhibitors/roster-file.ts';
import { importRoster, previewRoster } from '../../src/shared/api/exhibitors.ts';
import { ROSTER_FILE_MESSAGES, ROSTER_MAX_BYTES } from '../../src/shared/roster-messages.ts';
import { urlOf } from '../../src/web/lib/http.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { multipart } from '../helpers/multipart.ts';
import { seedEvent } from '../helpers/seed.ts';
import { workbookParts, zipArchive } from '../helpers/zip.ts';

const MB = 1024 * 1024;

/** The error an import answers, read from the worker's text through a schema, never cast. */
const importError = z.object({
  error: z.object({ message: z.string(), fields: z.record(z.string(), z.string()).optional() }),
});

/** A shared string of `size` bytes of "a", given 1 MB at a time. */
function* hugeSharedString(size: number) {
  yield '<si><t>';
  const block = Buffer.alloc(MB, 'a');
  for (let sent = 0; sent < size; sent += MB) yield block.subarray(0, Math.min(MB, size - sent));
  yield '</t></si>';
}

const headerAndOneRow =
  '<row r="1"><c r="A1" t="inlineStr"><is><t>Email</t></is></c><c r="B1" t="inlineStr"><is><t>Nombre completo</t></is></c></row>' +
  '<row r="2"><c r="A2" t="inlineStr"><is><t>ana@bomba.test</t></is></c><c r="B2" t="s"><v>0</v></c></row>';

/**
 * A sheet with an "Email" header and `count` addresses as Excel writes them (each a shared
 * string), and its shared strings; 10,000 rows a chunk. 400,000 rows unpack to about 28 MB, within
 * the limit: what stops them is the row count.
 */
function* manyRows(count: number) {
  yield '<row r="1"><c r="A1" t="s"><v>0</v></c></row>';
  for (let start = 2; start <= count + 1; start += 10_000) {
    let chunk = '';
    for (let r = start; r < Math.min(start + 10_000, count + 2); r += 1) {
      chunk += `<row r="${r}"><c r="A${r}" t="s"><v>${r - 1}</v></c></row>`;
    }
    yield chunk;
  }
}
function* manySharedStrings(count: number) {
  yield '<si><t>Email</t></si>';
  for (let start = 2; start <= count + 1; start += 10_000) {
    let chunk = '';
    for (let r = start; r < Math.min(start + 10_000, count + 2); r += 1) {
      chunk += `<si><t>p${r}@e.test</t></si>`;
    }
    yield chunk;
  }
}

/**
 * POSTs from a worker thread: the client's own work (copying a 5 MB body into the request) then
 * runs on another event loop than the server's, which is the one measured.
 */
function postFromWorker(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; text: string }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    fetch(workerData.url, { method: 'POST', headers: workerData.headers, body: workerData.body })
      .then(async (r) => parentPort.postMessage({ status: r.status, text: await r.text() }))
      .catch((error) => parentPort.postMessage({ error: String(error) }));`,
    {
      eval: true,
      workerData: { url, headers, body },
      transferList: [body.buffer as ArrayBuffer],
    },
  );
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (answer: { status: number; text: string } | { error: string }) => {
      void worker.terminate();
      if ('error' in answer) reject(new Error(answer.error));
      else resolve(answer);
    });
  });
}

describe('import files shaped to take the server down', () => {
  const app = useTestApp();
  let baseUrl: string;
  let eventId: string;
  const files: Record<string, { fileName: string; data: Buffer }> = {};

  beforeAll(async () => {
    // A real listening server: the files go over HTTP from another thread (see postFromWorker).
    await app.t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.t.app.server.address() as AddressInfo).port}`;
    eventId = (await seedEvent(app.db)).id;

    // 200 MB of one shared string, as the tester sent it: about 200 KB on the wire. Its directory
    // tells the truth; the next file's directory says it is 1 KB.
    files.bomb = {
      fileName: 'bomba.xlsx',
      data: await zipArchive(workbookParts([headerAndOneRow], hugeSharedString(200 * MB))),
    };
    files.lyingBomb = {
      fileName: 'bomba.xlsx',
      data: await zipArchive(
        workbookParts([headerAndOneRow], hugeSharedString(200 * MB), {
          sharedStringsDeclaredSize: 1024,
        }),
      ),
    };
    // Within the unpacked limit: read as a stream and stopped at row 5,001.
    files.manyRowsXlsx = {
      fileName: 'filas.xlsx',
      data: await zipArchive(workbookParts(manyRows(400_000), manySharedStrings(400_000))),
    };
    const rowsCsv = ['Email', ...Array.from({ length: 400_000 }, (_, i) => `p${i}@e.t`)].join('\n');
    files.manyRowsCsv = { fileName: 'filas.csv', data: Buffer.from(rowsCsv, 'utf8') };
    files.separators = { fileName: 'separadores.csv', data: Buffer.alloc(ROSTER_MAX_BYTES, ';') };
    files.blankLines = { fileName: 'vacias.csv', data: Buffer.alloc(ROSTER_MAX_BYTES, ';\n') };
  }, 60_000);
  const measured: string[] = [];
  afterAll(async () => {
    // The figures behind the README's line on import bounds; printed, not asserted beyond the above.
    console.info(measured.join('\n'));
  });

  /**
   * Sends the file to the preview or the import (from a worker thread) and, until it is answered,
   * asks /healthz every 20 ms (timing each answer) and, at every turn of the event loop's timers,
   * samples the heap and the CPU time this thread (the server's event loop) used since the
   * previous turn: the longest the loop was held. That is asserted along with /healthz's wall
   * clock, which on a machine whose two cores are shared by a dozen processes also counts theirs.
   */
  async function sendWhileProbing(url: string, file: { fileName: string; data: Buffer }) {
    const body = multipart([{ name: 'file', filename: file.fileName, data: file.data }]);
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    let lastTurn = process.threadCpuUsage();
    let longestTurnMs = 0;
    const sampler = setInterval(() => {
      const used = process.threadCpuUsage(lastTurn);
      lastTurn = process.threadCpuUsage();
      longestTurnMs = Math.max(longestTurnMs, (used.user + used.system) / 1000);
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 1);
    const healthLatencies: number[] = [];
    let answered = false;
    const probing = (async () => {
      while (!answered) {
        const started = performance.now();
        const health = await fetch(`${baseUrl}/healthz`);
        expect(health.status).toBe(200);
        await health.text();
        healthLatencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const started = performance.now();
    const cpuBefore = process.threadCpuUsage();
    const response = await postFromWorker(
      `${baseUrl}${url}`,
      { cookie: app.as.cookie, [CSRF_HEADER]: CSRF_VALUE, ...body.headers },
      body.payload,
    );
    const json = importError.parse(JSON.parse(response.text));
    const elapsed = performance.now() - started;
    const cpu = process.threadCpuUsage(cpuBefore);
    answered = true;
    await probing;
    clearInterval(sampler);
    return {
      status: response.status,
      json,
      elapsed,
      cpuMs: (cpu.user + cpu.system) / 1000,
      healthLatencies,
      longestTurnMs,
      heapGrowthMb: (heapPeak - heapBefore) / MB,
    };
  }

  const exhibitorCount = async () =>
    (await app.db.selectFrom('exhibitors').select('id').execute()).length;

  it.each([
    ['a 200 MB shared string (bomb.xlsx, honest directory)', 'bomb', 'unpackedTooLarge'],
    ['a 200 MB shared string whose directory says 1 KB', 'lyingBomb', 'unsupportedType'],
    [
      '400,000 rows of xlsx (as Excel writes them, within the unpacked limit)',
      'manyRowsXlsx',
      'tooManyRows',
    ],
    ['400,000 rows of CSV', 'manyRowsCsv', 'tooManyRows'],
    ['5 MB of ";"', 'separators', 'tooManyColumns'],
    ['5 MB of blank ";" lines', 'blankLines', 'tooManyRows'],
  ] as const)(
    'refuses %s with a Spanish 400, in bounded time and memory, /healthz answering meanwhile',
    async (_, key, code) => {
      const file = files[key]!;
      expect(file.data.length).toBeLessThanOrEqual(ROSTER_MAX_BYTES);
      const before = await exhibitorCount();
      const message = ROSTER_FILE_MESSAGES[code];
      for (const url of [
        urlOf(previewRoster, { params: { eventId } }),
        urlOf(importRoster, { params: { eventId } }),
      ]) {
        const sent = await sendWhileProbing(url, file);
        expect(sent.status).toBe(400);
        expect(sent.json.error).toMatchObject({ message, fields: { file: message } });
        // The event loop's CPU time for the whole request (/healthz probes included), and the wall
        // clock with room for a loaded machine.
        expect(sent.cpuMs).toBeLessThan(1_000);
        expect(sent.elapsed).toBeLessThan(10_000);
        expect(sent.heapGrowthMb).toBeLessThan(100);
        expect(sent.healthLatencies.length).toBeGreaterThan(0);
        expect(sent.longestTurnMs).toBeLessThan(100);
        measured.push(
          `${key} ${url.endsWith('preview') ? 'preview' : 'import'}: ${Math.round(sent.elapsed)} ms (${Math.round(sent.cpuMs)} ms of the loop's CPU), heap +${sent.heapGrowthMb.toFixed(0)} MB, longest loop turn ${Math.round(sent.longestTurnMs)} ms of CPU, /healthz ×${sent.healthLatencies.length} slowest ${Math.round(Math.max(...sent.healthLatencies))} ms`,
        );
      }
      expect(await exhibitorCount()).toBe(before);
    },
    30_000,
  );
});

describe('readRosterFile on hand-built workbooks', () => {
  const inline = (ref: string, text: string) =>
    `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
  const rowsOf = (result: RosterFileResult) => {
    if (!result.ok) throw new Error(`expected rows, got ${result.error.message}`);
    return result.rows;
  };
  const errorOf = (result: RosterFileResult) => {
    if (result.ok) throw new Error('expected a file error');
    return result.error.message;
  };

  it('reads the first sheet through its relationship, shared strings (rich text, without phonetic runs) and inline strings', async () => {
    const parts = workbookParts(
      [
        `<row r="1"><c r="A1" t="s"><v>0</v></c>${inline('B1', 'Nombre')}</row>`,
        `<row r="3"><c r="A3" t="s"><v>1</v></c><c r="B3" t="s"><v>2</v></c></row>`,
      ],
      [
        '<si><t>Email</t></si><si><t> ana@example.com </t></si>',
        '<si><r><t>Ana </t></r><r><t>Pérez</t></r><rPh><t>ア</t></rPh></si>',
      ],
    );
    const rows = rowsOf(
      await readRosterFile({ fileName: 'x.xlsx', bytes: await zipArchive(parts) }),
    );
    expect(rows).toEqual([
      { row: 3, fullName: 'Ana Pérez', email: 'ana@example.com', company: '' },
    ]);
  });

  it('refuses an xlsx whose parts unpack too far, by its directory, before inflating them', async () => {
    // 60 MB of spaces: over the total and at a ratio of about a thousand to one.
    function* spaces() {
      yield '<si><t>';
      for (let i = 0; i < 60; i += 1) yield Buffer.alloc(1024 * 1024, ' ');
      yield '</t></si>';
    }
    const bomb = await zipArchive(
      workbookParts([`<row r="1">${inline('A1', 'Email')}</row>`], spaces()),
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(errorOf(await readRosterFile({ fileName: 'x.xlsx', bytes: bomb }))).toBe(
      'El archivo Excel ocupa demasiado al descomprimirlo. Guárdelo solo con la hoja de expositores e intente de nuevo.',
    );
    // The same part declared as 1 KB, and used by a row: inflating stops past 1 KB, and the file
    // is unreadable.
    const rows = [
      `<row r="1">${inline('A1', 'Email')}</row>`,
      '<row r="2"><c r="A2" t="s"><v>0</v></c></row>',
    ];
    const lying = await zipArchive(
      workbookParts(rows, spaces(), {
        sharedStringsDeclaredSize: 1024,
      }),
    );
    const started = performance.now();
    expect(errorOf(await readRosterFile({ fileName: 'x.xlsx', bytes: lying }))).toBe(
      ROSTER_FILE_MESSAGES.unsupportedType,
    );
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
