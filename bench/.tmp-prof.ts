import { openDatabase } from '../src/server/db/connection.ts';
import { freshTestDatabase } from '../test/helpers/database.ts';
import { migrate } from '../src/server/db/migrate.ts';
