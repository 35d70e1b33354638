import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run abuse [-- --only=<name>]`: runs every attack script in this folder, one after another.
 * Each script starts its own service process on loopback against its own database, tries one kind
 * of attack, prints its checks and PASS or FAIL, and stops by itself. Exits non-zero when any fails.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const passThrough = process.argv.slice(2).filter((a) => !a.startsWith('--only='));
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'support.ts'].includes(f))
  .filter((f) => !only || f === `${only}.ts`)
  .sort();
const results: { script: string; ok: boolean }[] = [];
for (const script of scripts) {
  console.log(`\n== ${script}`);
  const result = spawnSync(process.execPath, [path.join(here, script), ...passThrough], {
    stdio: 'inherit',
    timeout: 5 * 60_000,
  });
  results.push({ script, ok: result.status === 0 });
}
console.log('\n| attack | verdict |\n|---|---|');
for (const r of results) console.log(`| ${r.script.replace(/\.ts$/, '')} | ${r.ok ? 'PASS' : 'FAIL'} |`);
const failed = results.filter((r) => !r.ok);
console.log(
  failed.length === 0 ? '\nall attacks repelled' : `\nfailed: ${failed.map((r) => r.script).join(', ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
