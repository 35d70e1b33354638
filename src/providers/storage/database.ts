import { sql } from 'kysely';
import type { AnyDb } from '../../platform/db/database.ts';
import { FileMissingError, type FileStorage } from './storage.ts';

/**
 * Files in the service's database (table stored_files), so every instance and every worker host
 * reads the same files whatever its DATA_DIR. Files stored on the local disk by an earlier version
 * are still read through `legacy`.
 */
export class DatabaseFileStorage implements FileStorage {
  readonly #db: AnyDb;
  readonly #legacy: FileStorage | undefined;

  constructor(db: AnyDb, legacy?: FileStorage) {
    this.#db = db;
    this.#legacy = legacy;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await sql`
      insert into stored_files (key, bytes, size) values (${key}, ${buffer}, ${buffer.length})
      on conflict (key) do update set bytes = excluded.bytes, size = excluded.size, created_at = now()`.execute(
      this.#db,
    );
  }

  async get(key: string): Promise<Buffer> {
    const result = await sql<{
      bytes: Uint8Array;
    }>`select bytes from stored_files where key = ${key}`.execute(this.#db);
    const row = result.rows[0];
    if (row) return Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
    if (this.#legacy) return this.#legacy.get(key);
    throw new FileMissingError(`no file ${key}`);
  }

  async delete(key: string): Promise<void> {
    await sql`delete from stored_files where key = ${key}`.execute(this.#db);
    await this.#legacy?.delete(key);
  }
}
