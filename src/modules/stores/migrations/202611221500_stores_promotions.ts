import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table stores (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      logo_url text not null,
      created_at timestamptz not null default now(),
      promotions_changed_at timestamptz
    )`.execute(db);
  // Store names are unique regardless of case.
  await sql`create unique index stores_name_lower_idx on stores (lower(name))`.execute(db);

  await sql`
    create table promotion_jobs (
      id uuid primary key,
      store_id uuid not null references stores(id) on delete cascade,
      file_key text not null,
      status text not null default 'pending'
        check (status in ('pending', 'processing', 'completed', 'failed')),
      pages_processed integer not null default 0,
      candidates_extracted integer not null default 0,
      error text,
      attempts integer not null default 0,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      completed_at timestamptz
    )`.execute(db);
  await sql`create index promotion_jobs_store_idx on promotion_jobs (store_id, created_at desc)`.execute(db);

  // Candidates and live promotions are one table: promotion is a status change, not a copy.
  await sql`
    create table promotions (
      id uuid primary key default gen_random_uuid(),
      store_id uuid not null references stores(id) on delete cascade,
      job_id uuid references promotion_jobs(id) on delete set null,
      product text not null,
      brand text not null default '',
      original_price numeric(10, 2) not null,
      discounted_price numeric(10, 2) not null,
      unit text not null default '',
      valid_until date not null,
      page integer not null,
      confidence real not null,
      status text not null default 'candidate' check (status in ('candidate', 'live', 'rejected')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index promotions_job_idx on promotions (job_id)`.execute(db);
  await sql`create index promotions_store_status_idx on promotions (store_id, status, valid_until)`.execute(
    db,
  );
  await sql`create index promotions_product_trgm_idx on promotions using gin (product gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index promotions_brand_trgm_idx on promotions using gin (brand gin_trgm_ops)`.execute(db);
}
