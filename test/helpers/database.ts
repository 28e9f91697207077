import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  url: string;
  engine: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file: a new SQLite file, or (when TEST_DB_ENGINE=postgres)
 * a new schema in TEST_DATABASE_URL's database (or `pgUrl`'s, for the bench), selected through the
 * connection's search_path.
 */
export async function freshTestDatabase(
  engine: 'sqlite' | 'postgres' = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'sqlite',
  pgUrl: string | undefined = process.env.TEST_DATABASE_URL,
): Promise<TestDatabase> {
  if (engine === 'postgres') {
    if (!pgUrl) throw new Error('a PostgreSQL test database needs TEST_DATABASE_URL');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      url: url.toString(),
      engine: 'postgres',
      async drop() {
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-test-'));
  return {
    url: `sqlite:${path.join(dir, 'premios.db')}`,
    engine: 'sqlite',
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
