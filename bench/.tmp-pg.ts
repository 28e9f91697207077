import { benchEventExport } from './event-export.ts';
import { freshTestDatabase } from '../test/helpers/database.ts';
const schema = await freshTestDatabase('postgres', 'postgres://postgres@127.0.0.1:5432/results_wt');
try { console.log(await benchEventExport(schema.url)); } finally { await schema.drop(); }
