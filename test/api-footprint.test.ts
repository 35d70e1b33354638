import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { npmStartFlags, startServiceProcess, type ServiceProcess } from './support/processes.ts';

/**
 * What an API instance carries and does at start: the flyer reader's OCR engine (tesseract.js and
 * the native canvas, ~30 MB resident) is loaded by the first flyer a worker reads, not by start-up;
 * the modules it compiles are kept on disk for the next start.
 */
describe('an API instance at start', () => {
  let dataDir: string;
  let compileCache: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'mise-footprint-'));
    // Where the cache goes by default (the system's temporary folder), made this test's own.
    compileCache = path.join(dataDir, 'node-compile-cache');
    service = await startServiceProcess(
      {
        TMPDIR: dataDir,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        JWT_SECRET: 'footprint-secret-footprint-secret-0123',
        SEED_CATALOG: 'false',
        RUN_WORKERS: 'false',
      },
      120_000,
    );
  }, 130_000);

  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers without having loaded the native canvas and ONNX Runtime the OCR engine needs', async () => {
    expect((await fetch(`${service.url}/api/recipes`)).status).toBe(200);
    const mapped = readFileSync(`/proc/${service.child.pid}/maps`, 'utf8');
    expect(mapped).toContain('node'); // the maps are readable
    expect(mapped).not.toMatch(/skia\.[\w-]+\.node/);
    expect(mapped).not.toMatch(/onnxruntime/);
  });

  it("keeps the modules it compiled for the next start (Node's compile cache)", async () => {
    await service.stop();
    const files = readdirSync(compileCache, { recursive: true, withFileTypes: true }).filter((e) =>
      e.isFile(),
    );
    // The service's own modules and its dependencies': hundreds, not a handful.
    expect(files.length).toBeGreaterThan(100);
  });
});

describe('an API instance started as npm start starts it', () => {
  const root = path.join(import.meta.dirname, '..');

  it('has a limited heap, and refuses at start a search index budget that heap cannot hold', () => {
    const limit = spawnSync(
      process.execPath,
      [...npmStartFlags(), '-p', 'require("node:v8").getHeapStatistics().heap_size_limit'],
      { encoding: 'utf8' },
    );
    expect(Number(limit.stdout) / 1048576).toBeLessThan(1100);
    const refused = spawnSync(process.execPath, [...npmStartFlags(), 'src/main.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', SEARCH_INDEX_BUDGET_MB: '1024', PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(refused.stderr).toMatch(
      /SEARCH_INDEX_BUDGET_MB: 1024 MB of search index needs a heap limit of at least 1536 MB/,
    );
    expect(refused.status).toBe(1);
  });
});
