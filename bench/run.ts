import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createBenchContext, type BenchContext } from './context.ts';
import { printTable, type BenchRow } from './lib.ts';
import { runScaleBench } from './scale.ts';

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
const recipesArg = process.argv.find((a) => a.startsWith('--recipes='))?.slice('--recipes='.length);

const suiteFiles = readdirSync(path.join(here, 'suites'))
  .filter((f) => f.endsWith('.ts'))
  .sort();

const rows: BenchRow[] = [];
const failedSuites: string[] = [];
if (recipesArg !== undefined) {
  // Issue 16: search at a given catalog size against a separate service process (bench/scale.ts).
  const total = Number(recipesArg);
  if (!Number.isInteger(total) || total < 10)
    throw new Error('--recipes=<count>: a whole number of at least 10');
  rows.push(...(await runScaleBench(total, { fresh: process.argv.includes('--fresh') })));
  report(rows, 'postgres', `scale-${total}`);
  process.exit(process.exitCode ?? 0);
}

const { ctx, close } = await createBenchContext(quick);
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

report(rows, ctx.databaseKind);
if (failedSuites.length > 0) {
  console.error(`suites that failed: ${failedSuites.join(', ')}`);
  process.exitCode = 1;
}

/** Prints the table and writes it, with the JSON, to bench/results/. */
function report(rows: BenchRow[], databaseKind: string, label = databaseKind): void {
  const table = printTable(rows);
  console.log(table);
  const resultsDir = path.join(here, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(resultsDir, `bench-${label}-${stamp}.json`);
  writeFileSync(
    file,
    JSON.stringify({ date: new Date().toISOString(), quick, database: databaseKind, rows }, null, 2),
  );
  writeFileSync(path.join(resultsDir, `latest-${label}.md`), table + '\n');
  console.error(`results: ${file}`);
  const missed = rows.filter((r) => r.met === false);
  if (missed.length > 0)
    console.error(`targets not met: ${missed.map((r) => `${r.suite}/${r.case}`).join(', ')}`);
}
