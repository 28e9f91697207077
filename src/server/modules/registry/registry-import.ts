import { failsCuitCheck, fiscalIdDigits } from '../../../shared/cuit.ts';
import {
  REGISTRY_FILE_MESSAGES,
  REGISTRY_MAX_BYTES,
  REGISTRY_MAX_ROWS,
  REGISTRY_TEMPLATE_HEADERS,
  type RegistryFileErrorCode,
  type RegistryRowStatus,
  type RegistrySummary,
} from '../../../shared/registry.ts';
import { ROSTER_MAX_COLUMNS } from '../../../shared/roster-messages.ts';
import { NOMINEE_FIELD_LABELS } from '../../../shared/schemas/nominee.ts';
import {
  resellerInput,
  type RegistryImportResponse,
  type RegistryPreviewResponse,
  type RegistryPreviewRow,
  type Reseller,
} from '../../../shared/schemas/registry.ts';
import type { SignedInAdmin as Admin } from '../../../shared/signed-in.ts';
import type { Db } from '../../db/connection.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { chunks } from '../../lib/chunks.ts';
import { badRequest } from '../../lib/errors.ts';
import { headerKey, readSheetFile, type SheetFile, type SheetRow } from '../../lib/sheet-file.ts';
import { iso } from '../../lib/time.ts';
import { writeWorkbook } from '../../lib/xlsx.ts';
import { readRegistrySettings, resellerColumns, toReseller } from './service.ts';

type RegistryField = keyof Reseller;

/**
 * The header names each field answers to, preferred first, as compared (`headerKey`: no accents,
 * lower case): the template's, then the names partner spreadsheets give these columns.
 */
export const REGISTRY_FIELD_HEADERS: Record<RegistryField, string[]> = {
  fiscalId: ['id fiscal', 'cuit', 'cuil', 'id'],
  name: ['nombre del reseller', 'nombre', 'reseller', 'nombre de fantasia'],
  registeredName: ['razon social', 'empresa', 'compania'],
  location: ['localidad', 'ciudad'],
  city: ['region', 'provincia'],
  contactName: ['nombre del contacto', 'contacto'],
  contactPosition: ['cargo del contacto', 'cargo'],
  phone: ['telefono', 'tel', 'celular'],
  email: ['email', 'correo electronico', 'correo', 'e-mail', 'mail'],
};

const FIELDS = Object.keys(REGISTRY_FIELD_HEADERS) as RegistryField[];

/** One row of the file: its number in the sheet and, per column found, the cell as typed. */
interface RegistryFileRow {
  row: number;
  cells: Partial<Record<RegistryField, string>>;
}

interface RegistryFile {
  rows: RegistryFileRow[];
  ignoredColumns: string[];
}

function fileError(code: RegistryFileErrorCode): never {
  throw badRequest(REGISTRY_FILE_MESSAGES[code], 'file');
}

const SHEET_LIMITS = {
  maxBytes: REGISTRY_MAX_BYTES,
  // The header, 20,000 entries and one more: enough to tell that there are too many.
  maxRows: REGISTRY_MAX_ROWS + 2,
  maxLines: 10 * REGISTRY_MAX_ROWS,
  maxColumns: ROSTER_MAX_COLUMNS,
  // A registry file is four times a roster's: bigger steps between turns keep 20,000 rows quick.
  csvChunkBytes: 64 * 1024,
};

/**
 * Reads the file as the exhibitor import does (lib/sheet-file.ts): columns found by their header
 * in any order, case and accents ignored; a file that cannot be read is a 400 with its reason.
 */
async function readRegistryFile(file: SheetFile): Promise<RegistryFile> {
  const sheet = await readSheetFile(file, SHEET_LIMITS);
  if (!sheet.ok) {
    fileError(
      sheet.code in REGISTRY_FILE_MESSAGES
        ? (sheet.code as RegistryFileErrorCode)
        : 'unsupportedType',
    );
  }
  const [header, ...body] = sheet.rows;
  if (!header) fileError(sheet.stoppedEarly ? 'tooManyRows' : 'empty');
  const headers = header.cells.map(headerKey);
  const columns = new Map<RegistryField, number>();
  for (const field of FIELDS) {
    const index = REGISTRY_FIELD_HEADERS[field]
      .map((name) => headers.indexOf(name))
      .find((found) => found !== -1 && ![...columns.values()].includes(found));
    if (index !== undefined) columns.set(field, index);
  }
  if (!columns.has('fiscalId')) fileError('noFiscalIdColumn');
  if (sheet.stoppedEarly || body.length > REGISTRY_MAX_ROWS) fileError('tooManyRows');
  if (body.length === 0) fileError('empty');
  const used = new Set(columns.values());
  return {
    rows: body.map(({ row, cells }: SheetRow) => {
      const values: Partial<Record<RegistryField, string>> = {};
      for (const [field, index] of columns) values[field] = cells[index] ?? '';
      return { row, cells: values };
    }),
    ignoredColumns: header.cells.filter((text, index) => !used.has(index) && text !== ''),
  };
}

interface ClassifiedRow extends RegistryPreviewRow {
  /** The entry to write, for "Nuevo" and "Actualiza". */
  values?: Reseller;
}

/** The stored entries, by fiscal id, as the form shows them. */
async function storedEntries(db: Db): Promise<Map<string, Reseller>> {
  const rows = await db.selectFrom('resellers').selectAll().execute();
  return new Map(rows.map((row) => [row.fiscal_id, toReseller(row)]));
}

const sameEntry = (a: Reseller, b: Reseller) => FIELDS.every((field) => a[field] === b[field]);

/**
 * The "Estado" of each row. A row gets the first that applies, in this order:
 * 1. "ID fiscal inválido": no fiscal id, anything but digits once dashes and spaces are removed,
 *    or (with "Validar CUIT en el padrón") 11 digits with a wrong check digit;
 * 2. "Falta el nombre": no "Nombre del reseller";
 * 3. "Dato inválido": a value the registry's form refuses, with the field and the form's message;
 * 4. "Repetido en el archivo": a fiscal id an earlier valid row already brings;
 * 5. "Nuevo", "Actualiza" or "Sin cambios", against the registry as stored.
 * A column the file does not have keeps what the entry holds (empty for a new one).
 */
function classify(
  file: RegistryFile,
  stored: Map<string, Reseller>,
  validateCuit: boolean,
): { rows: ClassifiedRow[]; summary: RegistrySummary } {
  const claimed = new Set<string>();
  const summary: RegistrySummary = { nuevos: 0, actualizados: 0, sinCambios: 0, conErrores: 0 };
  const rows = file.rows.map(({ row, cells }): ClassifiedRow => {
    const typed = { row, fiscalId: cells.fiscalId ?? '', name: cells.name ?? '' };
    const status = (value: RegistryRowStatus, extra: Partial<ClassifiedRow> = {}) => {
      if (value === 'new') summary.nuevos += 1;
      else if (value === 'update') summary.actualizados += 1;
      else if (value === 'unchanged') summary.sinCambios += 1;
      else summary.conErrores += 1;
      return { ...typed, status: value, ...extra };
    };
    const digits = fiscalIdDigits(typed.fiscalId);
    if (digits === null || failsCuitCheck(digits, validateCuit)) return status('invalidFiscalId');
    if (typed.name === '') return status('missingName');
    const before = stored.get(digits);
    const parsed = resellerInput.safeParse({ ...before, ...cells, fiscalId: digits });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path[0] as RegistryField | undefined;
      const label = field ? NOMINEE_FIELD_LABELS[field] : '';
      return status('invalidValue', { message: `${label}: ${issue?.message ?? ''}` });
    }
    if (claimed.has(digits)) return status('repeatedInFile');
    claimed.add(digits);
    const values = parsed.data;
    if (!before) return status('new', { values });
    return sameEntry(before, values) ? status('unchanged') : status('update', { values });
  });
  return { rows, summary };
}

/** What "Importar padrón" shows before anything is stored: every row with its "Estado". */
export async function previewRegistryImport(
  deps: AppDeps,
  { file }: { file: SheetFile },
): Promise<RegistryPreviewResponse> {
  const parsed = await readRegistryFile(file);
  const [stored, settings] = await Promise.all([
    storedEntries(deps.db),
    readRegistrySettings(deps.db),
  ]);
  const { rows, summary } = classify(parsed, stored, settings.validateCuit);
  return {
    rows: rows.map(({ values: _values, ...row }) => row),
    summary,
    ignoredColumns: parsed.ignoredColumns,
  };
}

/**
 * "Confirmar importación": the file's "Nuevo" and "Actualiza" rows written in one transaction,
 * classified again inside it (so an entry added since the preview is updated, never doubled),
 * with one audit entry; rows with an error are skipped. All or nothing: a failure writes none.
 */
export async function importRegistry(
  deps: AppDeps,
  { admin, file }: { admin: Admin; file: SheetFile },
): Promise<RegistryImportResponse> {
  const parsed = await readRegistryFile(file);
  return deps.transact(async (tx) => {
    const now = deps.clock.now();
    const [stored, settings] = await Promise.all([storedEntries(tx), readRegistrySettings(tx)]);
    const { rows, summary } = classify(parsed, stored, settings.validateCuit);
    const writes = rows.filter(
      (row): row is ClassifiedRow & { values: Reseller } => row.values !== undefined,
    );
    const stamp = iso(now);
    for (const part of chunks(writes, 400)) {
      await tx
        .insertInto('resellers')
        .values(
          part.map(({ values }) => ({
            ...resellerColumns(values),
            created_at: stamp,
            updated_at: stamp,
            updated_by: admin.adminId,
          })),
        )
        .onConflict((oc) =>
          oc.column('fiscal_id').doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            registered_name: eb.ref('excluded.registered_name'),
            location: eb.ref('excluded.location'),
            city: eb.ref('excluded.city'),
            contact_name: eb.ref('excluded.contact_name'),
            contact_position: eb.ref('excluded.contact_position'),
            phone: eb.ref('excluded.phone'),
            email: eb.ref('excluded.email'),
            search_text: eb.ref('excluded.search_text'),
            updated_at: eb.ref('excluded.updated_at'),
            updated_by: eb.ref('excluded.updated_by'),
          })),
        )
        .execute();
    }
    await recordAudit(tx, admin, now, {
      action: 'registry.imported',
      entityType: 'registry',
      details: {
        fileName: file.fileName,
        added: writes.filter((row) => row.status === 'new').map((row) => row.values.fiscalId),
        updated: writes.filter((row) => row.status === 'update').map((row) => row.values.fiscalId),
        summary,
      },
    });
    return { summary };
  });
}

/** The row under the template's headers, showing what each column holds (a valid CUIT). */
export const REGISTRY_TEMPLATE_EXAMPLE = [
  '30-71234567-1',
  'Reseller Ejemplo',
  'Reseller Ejemplo SA',
  'Córdoba',
  'Centro',
  'María José Álvarez',
  'Gerente comercial',
  '351 555 0100',
  'maria.alvarez@example.com',
] as const;

/** The file behind "Descargar plantilla": the nine headers and one example row. */
export function registryTemplateXlsx(): Promise<Buffer> {
  return writeWorkbook('Padrón', [...REGISTRY_TEMPLATE_HEADERS], [[...REGISTRY_TEMPLATE_EXAMPLE]]);
}
