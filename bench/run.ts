import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createBenchContext, type BenchContext } from './context.ts';
import { printTable, type BenchRow } from './lib.ts';

/**
 * `npm run bench [-- --quick] [-- --only=<suite>]`: runs every suite in bench/suites on PGlite, or on
 * PostgreSQL when DATABASE_URL is set; prints one table and writes JSON to bench/results/.
 */
interface Suite {
  name: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);

const suiteFiles = readdirSync(path.join(here, 'suites'))
  .filter((f) => f.endsWith('.ts'))
  .sort();

const { ctx, close } = await createBenchContext(quick);
const rows: BenchRow[] = [];
const failedSuites: string[] = [];
try {
  for (const file of suiteFiles) {
    const suite = (await import(pathToFileURL(path.join(here, 'suites', file)).href)).suite as Suite;
    if (only && suite.name !== only) continue;
    console.error(`running ${suite.name} on ${ctx.databaseKind}${quick ? ' (quick)' : ''}…`);
    // One suite failing (a module in flux) must not hide the others' figures.
    try {
      rows.push(...(await suite.run(ctx)));
    } catch (error) {
      failedSuites.push(suite.name);
      console.error(`suite ${suite.name} failed:`, error);
    }
  }
} finally {
  await close();
}

const table = printTable(rows);
console.log(table);
const resultsDir = path.join(here, 'results');
mkdirSync(resultsDir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const file = path.join(resultsDir, `bench-${ctx.databaseKind}-${stamp}.json`);
writeFileSync(
  file,
  JSON.stringify({ date: new Date().toISOString(), quick, database: ctx.databaseKind, rows }, null, 2),
);
writeFileSync(path.join(resultsDir, `latest-${ctx.databaseKind}.md`), table + '\n');
console.error(`results: ${file}`);
const missed = rows.filter((r) => r.met === false);
if (missed.length > 0)
  console.error(`targets not met: ${missed.map((r) => `${r.suite}/${r.case}`).join(', ')}`);
if (failedSuites.length > 0) {
  console.error(`suites that failed: ${failedSuites.join(', ')}`);
  process.exitCode = 1;
}
