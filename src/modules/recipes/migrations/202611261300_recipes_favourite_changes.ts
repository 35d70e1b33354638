import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/**
 * Favourites in the search change log: a row with `favourited_by` says that user's favourites
 * changed (added, removed, or cascaded away with a recipe or the user), so that every instance's
 * cache of a searching user's favourites (favourites-cache.ts) is forgotten at its next read of
 * the log, as recipes are. One row per user and statement: a cascade writes few rows.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table recipe_search_changes add column favourited_by uuid`.execute(db);
  await sql`
    create function recipe_favourites_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        insert into recipe_search_changes (recipe_id, favourited_by)
          select (array_agg(recipe_id))[1], user_id from old_rows group by user_id;
      else
        insert into recipe_search_changes (recipe_id, favourited_by)
          select (array_agg(recipe_id))[1], user_id from new_rows group by user_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger recipe_favourites_inserted after insert on recipe_favourites
      referencing new table as new_rows
      for each statement execute function recipe_favourites_changed()`.execute(db);
  await sql`
    create trigger recipe_favourites_deleted after delete on recipe_favourites
      referencing old table as old_rows
      for each statement execute function recipe_favourites_changed()`.execute(db);
}
