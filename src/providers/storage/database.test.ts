import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { DatabaseFileStorage } from './database.ts';
import { LocalDiskStorage } from './local-disk.ts';
import { FileMissingError } from './storage.ts';

let ctx: TestApp;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx?.close());

describe('files in the database', () => {
  it('keeps bytes exactly, replaces them on a second put, and forgets them on delete', async () => {
    const storage = new DatabaseFileStorage(ctx.database.db);
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 256);
    await storage.put('flyers/a/b.pdf', bytes);
    expect((await storage.get('flyers/a/b.pdf')).equals(Buffer.from(bytes))).toBe(true);
    await storage.put('flyers/a/b.pdf', Buffer.from('second'));
    expect((await storage.get('flyers/a/b.pdf')).toString()).toBe('second');
    await storage.delete('flyers/a/b.pdf');
    await expect(storage.get('flyers/a/b.pdf')).rejects.toBeInstanceOf(FileMissingError);
  });

  it('still reads a file an earlier version left on the disk', async () => {
    const disk = new LocalDiskStorage(mkdtempSync(path.join(tmpdir(), 'mise-legacy-')));
    await disk.put('flyers/old/job.pdf', Buffer.from('%PDF-old'));
    const storage = new DatabaseFileStorage(ctx.database.db, disk);
    expect((await storage.get('flyers/old/job.pdf')).toString()).toBe('%PDF-old');
    await expect(storage.get('flyers/none.pdf')).rejects.toBeInstanceOf(FileMissingError);
  });
});
