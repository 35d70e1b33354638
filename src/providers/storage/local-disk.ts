import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { FileMissingError, type FileStorage } from './storage.ts';

/** Files on the local disk under one root directory (default DATA_DIR/uploads). */
export class LocalDiskStorage implements FileStorage {
  readonly #root: string;

  constructor(root: string) {
    this.#root = path.resolve(root);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.#resolve(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Write then rename: a reader never sees a half-written file.
    const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, target);
  }

  async get(key: string): Promise<Buffer> {
    try {
      return await readFile(this.#resolve(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileMissingError(`no file ${key}`);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#resolve(key), { force: true });
  }

  #resolve(key: string): string {
    const target = path.resolve(this.#root, key);
    if (!target.startsWith(this.#root + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return target;
  }
}
