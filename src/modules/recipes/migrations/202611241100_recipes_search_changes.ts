import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  // The change log that keeps every instance's in-memory search index (search-feed.ts) current:
  // one row per recipe inserted, deleted, or updated in a column search reads. A reader follows
  // `seq`, and remembers the numbers missing below the highest it has seen (a transaction still
  // running, or rolled back) to look for them again, so no change is missed whatever the commit order.
  await sql`
    create table recipe_search_changes (
      seq bigserial primary key,
      recipe_id uuid not null,
      changed_at timestamptz not null default clock_timestamp()
    )`.execute(db);
  await sql`create index recipe_search_changes_changed_at_idx on recipe_search_changes (changed_at)`.execute(
    db,
  );
  await sql`
    create function recipe_search_rows_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        insert into recipe_search_changes (recipe_id) select id from old_rows;
      else
        insert into recipe_search_changes (recipe_id) select id from new_rows;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function recipe_search_row_changed() returns trigger language plpgsql as $$
    begin
      insert into recipe_search_changes (recipe_id) values (new.id);
      return null;
    end $$`.execute(db);
  // Inserts and deletes per statement (a bulk insert writes its log in one go); updates per row,
  // and only of the columns the index holds: it ranks, filters and shows results by itself.
  await sql`
    create trigger recipe_search_inserted after insert on recipes
      referencing new table as new_rows
      for each statement execute function recipe_search_rows_changed()`.execute(db);
  await sql`
    create trigger recipe_search_deleted after delete on recipes
      referencing old table as old_rows
      for each statement execute function recipe_search_rows_changed()`.execute(db);
  await sql`
    create trigger recipe_search_updated
      after update of title, description, ingredient_names, cuisine, difficulty, prep_time, cook_time,
        servings, calories, fits, meal_types, owner_id, is_public, rating_count, rating_sum, images
      on recipes
      for each row execute function recipe_search_row_changed()`.execute(db);
}
