import ExcelJS from 'exceljs';

/**
 * A downloaded .xlsx opened with ExcelJS. Its `load` is typed for an ArrayBuffer; the bytes are
 * copied into one rather than cast, whatever buffer they arrived in.
 */
export async function openWorkbook(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(bytes).buffer);
  return workbook;
}
