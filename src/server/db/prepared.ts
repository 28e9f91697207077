import { PostgresAdapter, type Compilable, type CompiledQuery, type QueryResult } from 'kysely';
import type { Db } from './connection.ts';

/** Stands for a named argument while the query is built; never reaches the database. */
const ARGUMENT_MARK = '\u0000prepared-argument:';

interface Template<Row> {
  compiled: CompiledQuery<Row>;
  /** For each parameter of `compiled`, the argument that fills it, or undefined for a constant. */
  argumentNames: (string | undefined)[];
}

/**
 * The name each hot statement goes by on PostgreSQL, by its text: sent as a named statement
 * (`connection.ts`), PostgreSQL parses and plans it once per connection instead of on every call.
 */
const statementNames = new Map<string, string>();

/** The name PostgreSQL keeps `sqlText` parsed under, when it is one of the hot statements. */
export const hotStatementName = (sqlText: string): string | undefined =>
  statementNames.get(sqlText);

/**
 * A query of the hot paths (every request's session, every save), built and compiled once per SQL
 * dialect and then run with each call's arguments. Building and compiling a Kysely query costs more
 * than SQLite takes to run it; the SQL sent is the same either way.
 *
 *   const findUser = prepared<{ id: string }, User>((db, arg) =>
 *     db.selectFrom('users').selectAll().where('id', '=', arg('id')));
 *   const { rows } = await findUser(db, { id });
 */
export function prepared<Args extends object, Row = unknown>(
  build: (db: Db, arg: <Name extends keyof Args & string>(name: Name) => Args[Name]) => Compilable,
): (db: Db, args: Args) => Promise<QueryResult<Row>> {
  // Keyed by the dialect's adapter class: a transaction and its database share one SQL dialect.
  const templates = new Map<unknown, Template<Row>>();
  const templateFor = (db: Db): Template<Row> => {
    const dialect = db.getExecutor().adapter.constructor;
    let template = templates.get(dialect);
    if (!template) {
      const compiled = build(db, (name) => `${ARGUMENT_MARK}${name}` as never).compile();
      const argumentNames = compiled.parameters.map((value) =>
        typeof value === 'string' && value.startsWith(ARGUMENT_MARK)
          ? value.slice(ARGUMENT_MARK.length)
          : undefined,
      );
      template = { compiled: compiled as CompiledQuery<Row>, argumentNames };
      templates.set(dialect, template);
      if (dialect === PostgresAdapter && !statementNames.has(compiled.sql)) {
        statementNames.set(compiled.sql, `premios_hot_${statementNames.size + 1}`);
      }
    }
    return template;
  };
  return (db, args) => {
    const { compiled, argumentNames } = templateFor(db);
    const parameters = argumentNames.map((name, index) =>
      name === undefined ? compiled.parameters[index] : (args as Record<string, unknown>)[name],
    );
    return db.executeQuery<Row>({ ...compiled, parameters });
  };
}
