import type { Db } from '../../src/server/db/connection.ts';
import { registrySearchText } from '../../src/server/lib/registry-search-text.ts';

/** A registry entry to seed: the fiscal id and name; the rest has defaults derived from them. */
export interface RegistrySeed {
  fiscalId: string;
  name: string;
  registeredName?: string;
  location?: string;
  city?: string;
  contactName?: string;
  contactPosition?: string;
  phone?: string;
  email?: string;
}

const stamp = '2026-01-01T00:00:00.000Z';

/** Entries written straight into the registry (`resellers`), their search text folded as the app does. */
export async function seedRegistry(db: Db, entries: readonly RegistrySeed[]): Promise<void> {
  const rows = entries.map((entry) => {
    const registeredName = entry.registeredName ?? `${entry.name} S.A.`;
    return {
      fiscal_id: entry.fiscalId,
      name: entry.name,
      registered_name: registeredName,
      location: entry.location ?? 'Rosario',
      city: entry.city ?? 'Santa Fe',
      contact_name: entry.contactName ?? '',
      contact_position: entry.contactPosition ?? '',
      phone: entry.phone ?? '',
      email: entry.email ?? '',
      search_text: registrySearchText(entry.name, registeredName),
      created_at: stamp,
      updated_at: stamp,
      updated_by: null,
    };
  });
  // In chunks: SQLite binds at most 32,766 parameters per statement.
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('resellers')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}

/** Empties the registry (tests of one file share the database). */
export async function clearRegistry(db: Db): Promise<void> {
  await db.deleteFrom('resellers').execute();
}
