// Hot queries are built and prepared once per database handle: drizzle otherwise rebuilds the SQL
// and better-sqlite3 re-prepares it on every call, which dominated request time under load.
const cache = new WeakMap<object, Map<string, unknown>>();

export function prepared<T>(db: object, key: string, build: () => T): T {
  let statements = cache.get(db);
  if (!statements) {
    statements = new Map();
    cache.set(db, statements);
  }
  let statement = statements.get(key) as T | undefined;
  if (statement === undefined) {
    statement = build();
    statements.set(key, statement);
  }
  return statement;
}
