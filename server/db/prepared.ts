import type { Db } from './client';

/**
 * Named statements, built once per database on first use. PostgreSQL plans a named statement once
 * per connection instead of on every call, and drizzle skips rebuilding the SQL; the hot reads use
 * these (unprepared, they spend most of their time in the planner: docs/benchmarks.md).
 */
export function preparedStatements<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let statements = byDb.get(db);
    if (!statements) {
      statements = build(db);
      byDb.set(db, statements);
    }
    return statements;
  };
}
