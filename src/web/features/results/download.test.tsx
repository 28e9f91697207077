import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './queries.ts';

describe('file name of a download', () => {
  it('prefers the RFC 5987 name, accents kept', () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="Premios Ano 2026-consumption.xlsx"; filename*=UTF-8''Premios%20A%C3%B1o%202026-consumption.xlsx`,
      ),
    ).toBe('Premios Año 2026-consumption.xlsx');
  });

  it('falls back to the plain name, and to nothing', () => {
    expect(fileNameFromDisposition('attachment; filename="30711111-resultados.xlsx"')).toBe(
      '30711111-resultados.xlsx',
    );
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
