import { sql, type DatabaseIntrospector, type SchemaMetadata, type TableMetadata } from 'kysely';
import type { AnyDb } from './database.ts';

/**
 * Kysely's migrator asks whether its own schema and tables exist by listing every schema and every
 * table column of the whole database. Another process dropping a schema meanwhile (parallel test
 * files, benchmarks, a removed tenant) makes that listing fail (has_schema_privilege on a name that
 * is gone). The migrator only needs to know about its own schema, so it is given an introspector
 * that looks at that schema alone and never touches the others.
 */
export class SchemaIntrospector implements DatabaseIntrospector {
  private readonly db: AnyDb;
  private readonly schema: string;

  constructor(db: AnyDb, schema: string) {
    this.db = db;
    this.schema = schema;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select nspname as name from pg_catalog.pg_namespace where nspname = ${this.schema}`.execute(this.db);
    return rows.map((row) => ({ name: row.name }));
  }

  /** Tables and views of the schema by name; the migrator reads no columns. */
  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; kind: string }>`
      select c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = ${this.schema} and c.relkind in ('r', 'v', 'p', 'f')`.execute(this.db);
    return rows.map((row) => ({
      name: row.name,
      schema: this.schema,
      isView: row.kind === 'v',
      isForeign: row.kind === 'f',
      columns: [],
    }));
  }
}

/**
 * The same database handle with its introspection limited to one schema. Methods are bound to the
 * real instance (Kysely keeps its state in private fields a proxy cannot reach).
 */
export function withSchemaIntrospection(db: AnyDb, schema: string): AnyDb {
  const introspection = new SchemaIntrospector(db, schema);
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
