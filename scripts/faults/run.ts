import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run faults [-- --quick] [-- --only=<name>]`: runs every fault script in this folder, one after
 * another (each starts its own service process against its own database), and exits non-zero when
 * any of them fails.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const passThrough = process.argv.slice(2).filter((a) => !a.startsWith('--only='));
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'support.ts'].includes(f))
  .filter((f) => !only || f === `${only}.ts`)
  .sort();
const failed: string[] = [];
for (const script of scripts) {
  console.log(`\n== ${script}`);
  const result = spawnSync(process.execPath, [path.join(here, script), ...passThrough], { stdio: 'inherit' });
  if (result.status !== 0) failed.push(script);
}
console.log(failed.length === 0 ? '\nall fault scripts passed' : `\nfailed: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
