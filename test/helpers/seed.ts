import type { Db } from '../../src/server/db/connection.ts';
import { newId } from '../../src/server/lib/crypto.ts';
import { hashPassword } from '../../src/server/lib/passwords.ts';
import type { CategoryAddress } from '../../src/shared/constants.ts';
import { defaultCategoryRows } from '../../src/server/lib/event-categories.ts';

/** Rows written straight to the database, for tests that need data before the API under test. */
const stamp = '2026-01-01T00:00:00.000Z';
let sequence = 0;
const next = () => ++sequence;

export async function seedAdmin(
  db: Db,
  values: { email?: string; fullName?: string | null; password?: string } = {},
) {
  const id = newId();
  const email = values.email ?? `admin${next()}@premios.test`;
  const password = values.password ?? 'Clave-segura-2026';
  const fullName = values.fullName === undefined ? 'Ana Administradora' : values.fullName;
  await db
    .insertInto('admins')
    .values({
      id,
      email,
      full_name: fullName,
      password_hash: fullName === null ? null : await hashPassword(password),
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  return { id, email, password, fullName };
}

export async function seedExhibitor(
  db: Db,
  values: { email?: string; fullName?: string; company?: string } = {},
) {
  const id = newId();
  const email = values.email ?? `expositor${next()}@empresa.test`;
  const row = {
    id,
    email,
    full_name: values.fullName ?? 'Esteban Expositor',
    company: values.company ?? 'Distribuidora Norte',
    created_at: stamp,
    updated_at: stamp,
  };
  await db.insertInto('exhibitors').values(row).execute();
  return { id, email, fullName: row.full_name, company: row.company };
}

export async function seedEvent(
  db: Db,
  values: { name?: string; eventDate?: string; voteDeadline?: string } = {},
) {
  const id = newId();
  const name = values.name ?? `Premios Partners ${next()}`;
  const row = {
    id,
    name,
    name_search: name
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase(),
    event_date: values.eventDate ?? '2026-07-15',
    vote_deadline: values.voteDeadline ?? '2026-07-01',
    created_by: null,
    created_at: stamp,
    updated_at: stamp,
  };
  await db.insertInto('events').values(row).execute();
  await db.insertInto('event_categories').values(defaultCategoryRows(id, stamp)).execute();
  return { id, name, eventDate: row.event_date, voteDeadline: row.vote_deadline };
}

export async function seedMembership(db: Db, eventId: string, exhibitorId: string) {
  await db
    .insertInto('event_exhibitors')
    .values({
      event_id: eventId,
      exhibitor_id: exhibitorId,
      invited_by: null,
      invitation_message_id: null,
      created_at: stamp,
      invited_at: stamp,
    })
    .execute();
}

export interface NomineeSeed {
  fiscalId: string;
  name?: string;
  email?: string;
  nominatedAt?: string;
}

/** A whole list, in the given order (1-based), for an exhibitor already in the event. */
export async function seedNominations(
  db: Db,
  list: {
    eventId: string;
    exhibitorId: string;
    category: CategoryAddress;
    nominees: NomineeSeed[];
  },
) {
  await db
    .insertInto('nomination_lists')
    .values({
      event_id: list.eventId,
      exhibitor_id: list.exhibitorId,
      category: list.category,
      version: 1,
      updated_at: stamp,
    })
    .onConflict((oc) => oc.columns(['event_id', 'exhibitor_id', 'category']).doNothing())
    .execute();
  let order = 0;
  for (const nominee of list.nominees) {
    order += 1;
    await db
      .insertInto('nominations')
      .values({
        event_id: list.eventId,
        exhibitor_id: list.exhibitorId,
        category: list.category,
        list_order: order,
        fiscal_id: nominee.fiscalId,
        name: nominee.name ?? `Reseller ${nominee.fiscalId}`,
        registered_name: `Razón Social ${nominee.fiscalId} S.A.`,
        contact_name: 'Carla Contacto',
        contact_position: 'Gerente Comercial',
        phone: '1155550000',
        email: nominee.email ?? `contacto${nominee.fiscalId}@reseller.test`,
        location: 'Palermo',
        city: 'Buenos Aires',
        nominated_at: nominee.nominatedAt ?? stamp,
        updated_at: stamp,
      })
      .execute();
  }
}
