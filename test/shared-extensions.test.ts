import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/platform/db/database.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';

const url = process.env.TEST_DATABASE_URL;

/**
 * Several schemas share one PostgreSQL database (parallel test files, benchmarks, tenants): one of
 * them going away must not take the trigram extension, and every other schema's indexes, with it.
 */
describe.runIf(url)('database extensions shared by isolated schemas', () => {
  it('dropping one migrated schema leaves pg_trgm working in another', async () => {
    const first = await openDatabase({
      url: url!,
      schema: `x_${randomBytes(5).toString('hex')}`,
      poolSize: 1,
    });
    const second = await openDatabase({
      url: url!,
      schema: `x_${randomBytes(5).toString('hex')}`,
      poolSize: 1,
    });
    try {
      await migrateToLatest(first.db, first.schema);
      await migrateToLatest(second.db, second.schema);
      await sql`drop schema ${sql.id(first.schema)} cascade`.execute(first.db);
      const score = await sql<{ s: number }>`select similarity('tomato', 'tomatoes') as s`.execute(second.db);
      expect(score.rows[0]!.s).toBeGreaterThan(0.5);
      const placed = await sql<{ schema: string }>`
        select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(
        second.db,
      );
      expect(placed.rows[0]!.schema).toBe('public');
    } finally {
      await sql`drop schema if exists ${sql.id(second.schema)} cascade`.execute(second.db);
      await first.close();
      await second.close();
    }
  });
});
