import type { FrozenMigration } from './frozen.ts';

/**
 * The programme's reseller registry ("Padrón de resellers", issue 27): one per installation, kept
 * across events, keyed by fiscal id. Nominations copy what they need from it when they are saved,
 * so editing or removing an entry never changes a stored nomination. `search_text` is the entry's
 * name and company name folded for search (lowercase, accents removed, one space between words,
 * with a leading space so that a word's prefix is ` prefix`).
 */
export const migration: FrozenMigration = {
  name: '0022_reseller_registry',
  steps: [
    `create table "resellers" ("fiscal_id" text primary key, "name" text not null, "registered_name" text not null, "location" text default '' not null, "city" text default '' not null, "contact_name" text default '' not null, "contact_position" text default '' not null, "phone" text default '' not null, "email" text default '' not null, "search_text" text not null, "created_at" text not null, "updated_at" text not null, "updated_by" text references "admins" ("id") on delete set null)`,
    `create index "resellers_name_idx" on "resellers" ("name", "fiscal_id")`,
  ],
};
