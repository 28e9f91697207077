import { describe, expect, it } from 'vitest';
import { categorySheetNames } from '../../src/server/modules/ranking/event-workbook.ts';
import { exportEvent } from '../../src/shared/api/results.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedCategory } from '../helpers/categories.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { openWorkbook } from '../helpers/workbook.ts';

/** "Exportar todo" (issue 26 item 2): one ranking sheet per category, named by it, in order. */
describe("the event's workbook follows its categories", () => {
  const app = useTestApp();

  it('cleans a name to Excel sheet-name rules, unique ignoring case', () => {
    const alone = (name: string) => categorySheetNames([name])[0];
    expect(alone('Seguridad: nube/red [2026]?')).toBe('Seguridad nube red 2026');
    expect(alone("'Citado'")).toBe('Citado');
    expect(alone('VOTOS')).toBe('VOTOS (2)');
    expect(alone('History')).toBe('History (2)');
    expect(alone('*?')).toBe('Categoría');
    const long = 'Mejor partner de seguridad informática del año';
    expect(categorySheetNames([long, long])).toEqual([
      'Mejor partner de seguridad info',
      'Mejor partner de seguridad (2)',
    ]);
  });

  it('has a sheet per category in order, with "1°" … "{n}°" and its points', async () => {
    const { id: eventId } = await seedEvent(app.db, { name: 'Premios Forma' });
    await seedCategory(app.db, eventId, {
      address: 'seguridad',
      name: 'Seguridad: nube/red',
      nomineeLimit: 3,
      scoring: 'one',
      position: 3,
    });
    const exhibitor = await seedExhibitor(app.db);
    await seedMembership(app.db, eventId, exhibitor.id);
    await seedNominations(app.db, {
      eventId,
      exhibitorId: exhibitor.id,
      category: 'seguridad',
      nominees: [{ fiscalId: '20111111111' }, { fiscalId: '20222222222' }],
    });
    const outcome = await app.api.send(exportEvent, { params: { eventId } });
    expect(outcome.status).toBe(200);
    const workbook = await openWorkbook(outcome.response.rawPayload);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'CONSUMO',
      'VALOR AGREGADO',
      'Seguridad nube red',
      'Votos',
      'Participación',
      'Correcciones',
    ]);
    const sheet = workbook.getWorksheet('Seguridad nube red');
    const rows: unknown[][] = [];
    sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([
      'Posición',
      'ID fiscal',
      'Nombre del reseller',
      'Razón social',
      '1°',
      '2°',
      '3°',
      'Puntos',
      'Nominaciones',
      'Desempate',
    ]);
    // "Un punto por nominación": one point each, whatever the place.
    expect(rows.slice(1).map((row) => [row[1], row[4], row[5], row[6], row[7]])).toEqual([
      ['20111111111', 1, 0, 0, 1],
      ['20222222222', 0, 1, 0, 1],
    ]);
    const consumo = workbook.getWorksheet('CONSUMO');
    expect((consumo?.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Posición',
      'ID fiscal',
      'Nombre del reseller',
      'Razón social',
      '1°',
      '2°',
      '3°',
      '4°',
      '5°',
      'Puntos',
      'Nominaciones',
      'Desempate',
    ]);
  });
});
