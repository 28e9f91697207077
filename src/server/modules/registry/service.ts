import { sql, type Selectable } from 'kysely';
import { failsCuitCheck } from '../../../shared/cuit.ts';
import { MSG } from '../../../shared/messages.ts';
import { REGISTRY_PAGE_SIZE } from '../../../shared/registry.ts';
import type {
  RegistryListResponse,
  RegistrySettings,
  Reseller,
  ResellerView,
} from '../../../shared/schemas/registry.ts';
import { searchKey } from '../../../shared/search.ts';
import type { SignedInAdmin as Admin } from '../../../shared/signed-in.ts';
import type { Db } from '../../db/connection.ts';
import type { ResellersTable } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { registrySearchText } from '../../lib/registry-search-text.ts';
import { sealedEventIds } from '../../lib/sealed-results.ts';
import { iso } from '../../lib/time.ts';

export type ResellerRow = Selectable<ResellersTable>;

/** A stored entry as the registry's form shows it. */
export function toReseller(row: ResellerRow): Reseller {
  return {
    fiscalId: row.fiscal_id,
    name: row.name,
    registeredName: row.registered_name,
    location: row.location,
    city: row.city,
    contactName: row.contact_name,
    contactPosition: row.contact_position,
    phone: row.phone,
    email: row.email,
  };
}

/** The columns an entry's form values are stored in, `search_text` kept in step with them. */
export function resellerColumns(values: Reseller) {
  return {
    fiscal_id: values.fiscalId,
    name: values.name,
    registered_name: values.registeredName,
    location: values.location,
    city: values.city,
    contact_name: values.contactName,
    contact_position: values.contactPosition,
    phone: values.phone,
    email: values.email,
    search_text: registrySearchText(values.name, values.registeredName),
  };
}

/** "Validar CUIT en el padrón": off until an administrator turns it on. */
export async function readRegistrySettings(db: Db): Promise<RegistrySettings> {
  const row = await db
    .selectFrom('registry_settings')
    .select('validate_cuit')
    .where('id', '=', 1)
    .executeTakeFirst();
  return { validateCuit: Number(row?.validate_cuit ?? 0) === 1 };
}

export async function updateRegistrySettings(
  deps: AppDeps,
  { admin, settings }: { admin: Admin; settings: RegistrySettings },
): Promise<RegistrySettings> {
  await deps.transact(async (tx) => {
    const now = deps.clock.now();
    const before = await readRegistrySettings(tx);
    await tx
      .insertInto('registry_settings')
      .values({
        id: 1,
        validate_cuit: settings.validateCuit ? 1 : 0,
        updated_at: iso(now),
        updated_by: admin.adminId,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          validate_cuit: settings.validateCuit ? 1 : 0,
          updated_at: iso(now),
          updated_by: admin.adminId,
        }),
      )
      .execute();
    if (before.validateCuit !== settings.validateCuit) {
      await recordAudit(tx, admin, now, {
        action: 'registry.settings_changed',
        entityType: 'registry',
        details: { validateCuit: settings.validateCuit },
      });
    }
  });
  return settings;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * "Buscar": every word typed is part of a word of the name or company name (accents and case
 * ignored), or what is typed, without dashes and spaces, starts the fiscal id.
 */
function matching(db: Db, q: string) {
  let query = db.selectFrom('resellers as r');
  const words = searchKey(q)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  if (words.length === 0) return query;
  const digits = q.replace(/[\s-]/g, '');
  query = query.where((eb) => {
    const byName = eb.and(
      words.map((word) => sql<boolean>`r.search_text like ${`%${escapeLike(word)}%`} escape '\\'`),
    );
    return /^\d+$/.test(digits) ? eb.or([byName, eb('r.fiscal_id', 'like', `${digits}%`)]) : byName;
  });
  return query;
}

/** One page of the registry, by name (accents and case ignored), with each entry's nominations. */
export async function listResellers(
  deps: AppDeps,
  query: { page: number; q: string },
): Promise<RegistryListResponse> {
  const [counted, all, settings] = await Promise.all([
    matching(deps.db, query.q)
      .select(sql<number>`cast(count(*) as integer)`.as('n'))
      .executeTakeFirstOrThrow(),
    deps.db
      .selectFrom('resellers')
      .select(sql<number>`cast(count(*) as integer)`.as('n'))
      .executeTakeFirstOrThrow(),
    readRegistrySettings(deps.db),
  ]);
  // Nominations of events whose results are sealed do not count here (docs/decisions/0036).
  const sealed = await sealedEventIds(deps, deps.db);
  const rows = await matching(deps.db, query.q)
    .selectAll('r')
    .select((eb) => {
      const count = eb
        .selectFrom('nominations as n')
        .select(sql<number>`cast(count(*) as integer)`.as('n'))
        .whereRef('n.fiscal_id', '=', 'r.fiscal_id');
      return (sealed.length > 0 ? count.where('n.event_id', 'not in', sealed) : count).as(
        'nominations',
      );
    })
    .orderBy('r.search_text')
    .orderBy('r.fiscal_id')
    .limit(REGISTRY_PAGE_SIZE)
    .offset((query.page - 1) * REGISTRY_PAGE_SIZE)
    .execute();
  return {
    resellers: rows.map(({ nominations, ...row }) => ({
      ...toReseller(row),
      nominations: Number(nominations ?? 0),
    })),
    total: Number(counted.n),
    all: Number(all.n),
    page: query.page,
    pageSize: REGISTRY_PAGE_SIZE,
    validateCuit: settings.validateCuit,
  };
}

const alreadyInRegistry = () =>
  new AppError('conflict', {
    message: MSG.resellerAlreadyInRegistry,
    fields: { fiscalId: MSG.resellerAlreadyInRegistry },
  });

/** "Validar CUIT en el padrón": 400 on an 11-digit id with a wrong check digit. */
async function checkCuit(db: Db, fiscalId: string): Promise<void> {
  const { validateCuit } = await readRegistrySettings(db);
  if (failsCuitCheck(fiscalId, validateCuit)) throw badRequest(MSG.invalidCuit, 'fiscalId');
}

/** A registry entry's "Nominaciones": stored nominations of its fiscal id, sealed events' left out. */
async function nominationsOf(
  deps: Pick<AppDeps, 'clock' | 'config'>,
  db: Db,
  fiscalId: string,
): Promise<number> {
  const sealed = await sealedEventIds(deps, db);
  let query = db
    .selectFrom('nominations')
    .select(sql<number>`cast(count(*) as integer)`.as('n'))
    .where('fiscal_id', '=', fiscalId);
  if (sealed.length > 0) query = query.where('event_id', 'not in', sealed);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function addReseller(
  deps: AppDeps,
  { admin, values }: { admin: Admin; values: Reseller },
): Promise<ResellerView> {
  return deps.transact(async (tx) => {
    const now = deps.clock.now();
    await checkCuit(tx, values.fiscalId);
    const inserted = await tx
      .insertInto('resellers')
      .values({
        ...resellerColumns(values),
        created_at: iso(now),
        updated_at: iso(now),
        updated_by: admin.adminId,
      })
      .onConflict((oc) => oc.column('fiscal_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw alreadyInRegistry();
    await recordAudit(tx, admin, now, {
      action: 'registry.added',
      entityType: 'reseller',
      entityId: values.fiscalId,
      details: { after: values },
    });
    return { ...values, nominations: await nominationsOf(deps, tx, values.fiscalId) };
  });
}

async function findReseller(db: Db, fiscalId: string): Promise<ResellerRow> {
  const row = await db
    .selectFrom('resellers')
    .selectAll()
    .where('fiscal_id', '=', fiscalId)
    .executeTakeFirst();
  if (!row) throw notFound(MSG.resellerNotFound);
  return row;
}

/** An administrator's change to one entry of the registry, named by its fiscal id. */
export interface ResellerChange {
  admin: Admin;
  fiscalId: string;
}

/**
 * Edits an entry, its fiscal id included (a new one must not be in the registry already). Stored
 * nominations keep what they were saved with.
 */
export async function editReseller(
  deps: AppDeps,
  { admin, fiscalId, values }: ResellerChange & { values: Reseller },
): Promise<ResellerView> {
  return deps.transact(async (tx) => {
    const now = deps.clock.now();
    const before = await findReseller(tx, fiscalId);
    await checkCuit(tx, values.fiscalId);
    if (values.fiscalId !== fiscalId) {
      const taken = await tx
        .selectFrom('resellers')
        .select('fiscal_id')
        .where('fiscal_id', '=', values.fiscalId)
        .executeTakeFirst();
      if (taken) throw alreadyInRegistry();
    }
    await tx
      .updateTable('resellers')
      .set({ ...resellerColumns(values), updated_at: iso(now), updated_by: admin.adminId })
      .where('fiscal_id', '=', fiscalId)
      .execute();
    await recordAudit(tx, admin, now, {
      action: 'registry.edited',
      entityType: 'reseller',
      entityId: values.fiscalId,
      details: { before: toReseller(before), after: values },
    });
    return { ...values, nominations: await nominationsOf(deps, tx, values.fiscalId) };
  });
}

export async function removeReseller(
  deps: AppDeps,
  { admin, fiscalId }: ResellerChange,
): Promise<void> {
  await deps.transact(async (tx) => {
    const now = deps.clock.now();
    const before = await findReseller(tx, fiscalId);
    await tx.deleteFrom('resellers').where('fiscal_id', '=', fiscalId).execute();
    await recordAudit(tx, admin, now, {
      action: 'registry.removed',
      entityType: 'reseller',
      entityId: fiscalId,
      details: { before: toReseller(before) },
    });
  });
}
