import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { UnitOfWork } from './unit-of-work.ts';

/** On PGlite (one connection) and, with TEST_DATABASE_URL, on PostgreSQL in a schema of its own. */
let database: DatabaseHandle;
let uow: UnitOfWork;
beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL;
  database = await openDatabase(
    url ? { url, schema: `u_${randomBytes(5).toString('hex')}`, poolSize: 3 } : {},
  );
  uow = new UnitOfWork(database.db);
  await sql`create table uow_items (name text primary key)`.execute(database.db);
});
afterAll(async () => {
  if (database.schema !== 'public')
    await sql`drop schema ${sql.id(database.schema)} cascade`.execute(database.db);
  await database.close();
});

const names = async () =>
  (await sql<{ name: string }>`select name from uow_items order by name`.execute(database.db)).rows.map(
    (r) => r.name,
  );
const insert = (name: string) => sql`insert into uow_items values (${name})`.execute(uow.db);

describe('UnitOfWork', () => {
  it('rolls back every step, nested units and repositories’ own transactions included', async () => {
    await expect(
      uow.run(async () => {
        await insert('a');
        await uow.run(() => insert('b'));
        // A repository's own transaction joins the open unit (on PGlite, opening a second one would wait forever).
        await uow.db.transaction().execute((trx) => sql`insert into uow_items values ('c')`.execute(trx));
        throw new Error('step failed');
      }),
    ).rejects.toThrow('step failed');
    expect(await names()).toEqual([]);
  });

  it('commits once at the outermost unit; afterCommit runs after it, outside the transaction', async () => {
    const seen: string[][] = [];
    await uow.run(async () => {
      await insert('x');
      await uow.afterCommit(async () => {
        seen.push(await names()); // read on the root database: sees the committed row
      });
      await uow.run(() => insert('y'));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([['x', 'y']]);
    await sql`delete from uow_items`.execute(database.db);
  });

  it('skips afterCommit work on rollback and sends queries outside a unit to the root', async () => {
    let ran = false;
    await uow
      .run(async () => {
        await uow.afterCommit(() => (ran = true));
        throw new Error('no');
      })
      .catch(() => undefined);
    expect(ran).toBe(false);
    expect(uow.active).toBe(false);
    await insert('z');
    expect(await names()).toEqual(['z']);
  });

  it('serves concurrent units side by side without mixing their writes', async () => {
    await sql`delete from uow_items`.execute(database.db);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        uow.run(async () => {
          await insert(`p${i}`);
          await insert(`q${i}`);
          if (i % 2 === 1) throw new Error('odd fails');
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await names()).toEqual(['p0', 'p2', 'p4', 'q0', 'q2', 'q4']);
  });
});
