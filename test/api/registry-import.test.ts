/**
 * "Importar padrón" (issue 27 item 1): a .csv or .xlsx whose columns are found by their header as
 * in the exhibitor import (any order, case and accents ignored); a preview with every row's
 * "Estado" that stores nothing; "Confirmar importación" writing the new and changed entries in one
 * transaction, audited; bad files refused with their reason; "Descargar plantilla".
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  addReseller,
  importRegistry,
  previewRegistryImport,
  registryTemplate,
  updateRegistrySettings,
} from '../../src/shared/api/registry.ts';
import { MSG } from '../../src/shared/messages.ts';
import { REGISTRY_TEMPLATE_HEADERS, registrySummaryText } from '../../src/shared/registry.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { openWorkbook } from '../helpers/workbook.ts';

const csv = (lines: string[]) => Buffer.from(lines.join('\n'), 'utf8');

/** One row of every "Estado", against a registry holding 30500000001 and 30500000002. */
const mixed = csv([
  'razon social;EMAIL;Nombre del Reseller;Id Fiscal;Región',
  'Nuevo SA;nuevo@reseller.test;Nuevo Uno;20-11111111-2;Centro',
  'Actualizado SA;;Cambia;30500000001;Sur',
  'Igual SA;;Igual;30500000002;Norte',
  'Letras SA;;Con Letras;20A11111;Norte',
  'Sin Nombre SA;;;30500000009;Norte',
  'Repetido SA;;Otra Vez;20111111112;Centro',
  'Mal Email SA;no-es-email;Mal Email;30500000010;Centro',
  ';;Sin Id;;Centro',
]);

describe('importing the registry', () => {
  const app = useTestApp();

  const preview = (fileName: string, data: Buffer) =>
    app.api.send(previewRegistryImport, {}, { file: { filename: fileName, data } });
  const confirm = (fileName: string, data: Buffer) =>
    app.api.send(importRegistry, {}, { file: { filename: fileName, data } });
  const registry = async () =>
    (
      await app.db
        .selectFrom('resellers')
        .select(['fiscal_id', 'name', 'registered_name', 'city', 'email', 'search_text'])
        .orderBy('fiscal_id')
        .execute()
    ).map((row) => ({ ...row }));

  async function seedTwo() {
    await app.db.deleteFrom('resellers').execute();
    await app.api.call(addReseller, {
      body: {
        fiscalId: '30500000001',
        name: 'Antes',
        registeredName: 'Actualizado SA',
        city: 'Oeste',
      },
    });
    await app.api.call(addReseller, {
      body: { fiscalId: '30500000002', name: 'Igual', registeredName: 'Igual SA', city: 'Norte' },
    });
  }

  it('previews every row with its Estado and stores nothing', async () => {
    await seedTwo();
    const before = await registry();
    const answer = await preview('padron.csv', mixed);
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.data.rows).toEqual([
      { row: 2, fiscalId: '20-11111111-2', name: 'Nuevo Uno', status: 'new' },
      { row: 3, fiscalId: '30500000001', name: 'Cambia', status: 'update' },
      { row: 4, fiscalId: '30500000002', name: 'Igual', status: 'unchanged' },
      { row: 5, fiscalId: '20A11111', name: 'Con Letras', status: 'invalidFiscalId' },
      { row: 6, fiscalId: '30500000009', name: '', status: 'missingName' },
      { row: 7, fiscalId: '20111111112', name: 'Otra Vez', status: 'repeatedInFile' },
      {
        row: 8,
        fiscalId: '30500000010',
        name: 'Mal Email',
        status: 'invalidValue',
        message: `Email: ${MSG.invalidEmail}`,
      },
      { row: 9, fiscalId: '', name: 'Sin Id', status: 'invalidFiscalId' },
    ]);
    expect(answer.data.summary).toEqual({
      nuevos: 1,
      actualizados: 1,
      sinCambios: 1,
      conErrores: 5,
    });
    expect(registrySummaryText(answer.data.summary)).toBe(
      '1 nuevos, 1 actualizados, 5 con errores',
    );
    expect(answer.data.ignoredColumns).toEqual([]);
    expect(await registry()).toEqual(before);
  });

  it('confirms: new and changed entries written, the rest left, one audit entry', async () => {
    await seedTwo();
    const answer = await confirm('padron.csv', mixed);
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.data.summary).toEqual({
      nuevos: 1,
      actualizados: 1,
      sinCambios: 1,
      conErrores: 5,
    });
    expect(await registry()).toEqual([
      {
        fiscal_id: '20111111112',
        name: 'Nuevo Uno',
        registered_name: 'Nuevo SA',
        city: 'Centro',
        email: 'nuevo@reseller.test',
        search_text: ' nuevo uno nuevo sa',
      },
      {
        fiscal_id: '30500000001',
        name: 'Cambia',
        registered_name: 'Actualizado SA',
        city: 'Sur',
        email: '',
        search_text: ' cambia actualizado sa',
      },
      {
        fiscal_id: '30500000002',
        name: 'Igual',
        registered_name: 'Igual SA',
        city: 'Norte',
        email: '',
        search_text: ' igual igual sa',
      },
    ]);
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['details', 'actor_id'])
      .where('action', '=', 'registry.imported')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_id).toBe(app.admin.id);
    expect(JSON.parse(audit[0]?.details ?? '{}')).toEqual({
      fileName: 'padron.csv',
      added: ['20111111112'],
      updated: ['30500000001'],
      summary: { nuevos: 1, actualizados: 1, sinCambios: 1, conErrores: 5 },
    });
    // The same file again: nothing left to change.
    const again = await confirm('padron.csv', mixed);
    if (!again.ok) throw new Error(again.message);
    expect(again.data.summary).toMatchObject({ nuevos: 0, actualizados: 0, sinCambios: 3 });
  });

  it('keeps what a column the file lacks holds, and names the columns it does not read', async () => {
    await seedTwo();
    const answer = await confirm(
      'padron.csv',
      csv(['CUIT,Nombre,Observaciones', '30500000001,Solo Nombre,nada']),
    );
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.data.summary).toMatchObject({ actualizados: 1 });
    expect((await registry()).find((row) => row.fiscal_id === '30500000001')).toMatchObject({
      name: 'Solo Nombre',
      registered_name: 'Actualizado SA',
      city: 'Oeste',
    });
    const previewed = await preview('padron.csv', csv(['CUIT,Nombre,Observaciones', '1,X,y']));
    expect(previewed.ok && previewed.data.ignoredColumns).toEqual(['Observaciones']);
  });

  it('with "Validar CUIT en el padrón" marks a wrong check digit "ID fiscal inválido"', async () => {
    await app.db.deleteFrom('resellers').execute();
    await app.api.call(updateRegistrySettings, { body: { validateCuit: true } });
    try {
      const answer = await preview(
        'padron.csv',
        csv(['ID fiscal;Nombre del reseller', '20111111113;Mal', '20111111112;Bien', '123;Corto']),
      );
      if (!answer.ok) throw new Error(answer.message);
      expect(answer.data.rows.map((row) => row.status)).toEqual(['invalidFiscalId', 'new', 'new']);
    } finally {
      await app.api.call(updateRegistrySettings, { body: { validateCuit: false } });
    }
  });

  it('reads an .xlsx the same way', async () => {
    await app.db.deleteFrom('resellers').execute();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Hoja');
    sheet.addRow(['Nombre del reseller', 'ID FISCAL', 'Localidad']);
    sheet.addRow(['Desde Excel', '30712345671', 'Rosario']);
    const data = Buffer.from(await workbook.xlsx.writeBuffer());
    const answer = await confirm('padron.xlsx', data);
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.data.summary.nuevos).toBe(1);
    expect(await registry()).toMatchObject([{ fiscal_id: '30712345671', name: 'Desde Excel' }]);
  });

  it('refuses bad files with their reason and changes nothing', async () => {
    await seedTwo();
    const before = await registry();
    const cases: [string, Buffer, string][] = [
      ['padron.txt', csv(['ID fiscal;Nombre', '1;X']), MSG.rosterUnsupportedType],
      ['padron.csv', Buffer.alloc(0), MSG.rosterEmpty],
      ['padron.csv', csv(['Nombre;Email', 'X;x@e.test']), MSG.registryNoFiscalIdColumn],
      ['padron.csv', csv(['ID fiscal;Nombre']), MSG.rosterEmpty],
      ['padron.xlsx', csv(['ID fiscal;Nombre', '1;X']), MSG.rosterUnsupportedType],
      [
        'padron.csv',
        csv(['ID fiscal;Nombre', ...Array.from({ length: 20_001 }, (_, i) => `${i + 1};R${i}`)]),
        MSG.registryTooManyRows,
      ],
    ];
    for (const [fileName, data, message] of cases) {
      for (const send of [preview, confirm]) {
        const answer = await send(fileName, data);
        expect(answer.ok).toBe(false);
        if (answer.ok) continue;
        expect(answer.status).toBe(400);
        expect(answer.message).toBe(message);
        expect(answer.fields).toEqual({ file: message });
      }
    }
    const tooLarge = await confirm('padron.csv', Buffer.alloc(10 * 1024 * 1024 + 1, 0x31));
    expect(tooLarge.ok || tooLarge.status).toBe(413);
    expect(tooLarge.ok || tooLarge.message).toBe(MSG.registryTooLarge);
    expect(await registry()).toEqual(before);
    expect(
      await app.db
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'registry.imported')
        .where('details', 'like', '%padron.txt%')
        .execute(),
    ).toEqual([]);
  });

  it('offers a template with the nine headers and a valid example row, which imports as is', async () => {
    const response = await app.t.request({
      method: 'GET',
      url: registryTemplate.path,
      as: app.as,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('plantilla-padron.xlsx');
    const workbook = await openWorkbook(response.rawPayload);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, ...REGISTRY_TEMPLATE_HEADERS]);
    await app.db.deleteFrom('resellers').execute();
    const answer = await confirm('plantilla-padron.xlsx', response.rawPayload);
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.data.summary).toEqual({
      nuevos: 1,
      actualizados: 0,
      sinCambios: 0,
      conErrores: 0,
    });
    expect(await registry()).toMatchObject([
      { fiscal_id: '30712345671', name: 'Reseller Ejemplo' },
    ]);
  });
});
