import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/platform/db/database.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';

const url = process.env.TEST_DATABASE_URL;

/**
 * Parallel test files and benchmarks share one PostgreSQL database, each in a schema it drops when
 * done. A schema dropped while another one migrates must not fail that migration (Kysely's migrator
 * introspects every schema of the database before it runs anything).
 */
describe.runIf(url)('migrating while other schemas come and go', () => {
  it('migrates a fresh schema while another connection keeps dropping schemas', async () => {
    const churn = await openDatabase({ url: url!, schema: 'public', poolSize: 2 });
    const target = await openDatabase({
      url: url!,
      schema: `m_${randomBytes(5).toString('hex')}`,
      poolSize: 2,
    });
    let running = true;
    const dropped: string[] = [];
    const churning = (async () => {
      while (running) {
        const name = `c_${randomBytes(5).toString('hex')}`;
        await sql`create schema ${sql.id(name)}`.execute(churn.db);
        await sql`create table ${sql.id(name)}.item (id serial primary key, label text)`.execute(churn.db);
        // Tables dropped one by one (42P01 for a migrator listing them), then the schema (3F000).
        for (let t = 0; t < 8; t++)
          await sql`create table ${sql.id(name)}.${sql.id(`t${t}`)} (id int)`.execute(churn.db);
        for (let t = 0; t < 8; t++)
          await sql`drop table ${sql.id(name)}.${sql.id(`t${t}`)}`.execute(churn.db);
        await sql`drop schema ${sql.id(name)} cascade`.execute(churn.db);
        dropped.push(name);
        // About as often as parallel test files finish: fast enough to hit most migrations.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      for (let round = 0; round < 4; round++) {
        await migrateToLatest(target.db, target.schema);
        await sql`drop schema ${sql.id(target.schema)} cascade`.execute(target.db);
        await sql`create schema ${sql.id(target.schema)}`.execute(target.db);
      }
      await migrateToLatest(target.db, target.schema);
      const tables = await sql<{ n: number }>`
        select count(*)::int as n from pg_tables where schemaname = ${target.schema}`.execute(target.db);
      expect(tables.rows[0]!.n).toBeGreaterThan(10);
      expect(dropped.length).toBeGreaterThan(0);
    } finally {
      running = false;
      await churning;
      await sql`drop schema if exists ${sql.id(target.schema)} cascade`.execute(target.db);
      await churn.close();
      await target.close();
    }
  }, 120_000);
});
