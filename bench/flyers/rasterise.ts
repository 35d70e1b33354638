import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rasteriseFlyer } from './rasterise-flyer.ts';
import type { FlyerLabels } from './scoring.ts';

/**
 * npm run flyers:rasterise [-- --dir <folder> ...] [--out <folder>] [--dpi <n>] [--quality <0-100>] [--degrees <n>] [--bilevel] [--quarter-turns <1-3>] [--shade <0-0.8>]
 * Turns every labelled flyer of a folder that has a text layer into an image-only one: each page
 * drawn by pdf.js at `--dpi` (default 150, what flyer sites export), saved as a JPEG page in a PDF
 * with no text, its labels beside it. Real layouts, faces and photos nobody here designed, read by
 * OCR alone: a measure of the image path that the generator's own drawing cannot give. `--degrees`
 * lays each page that far crooked (clockwise, about its centre), as a paper flyer on a scanner;
 * `--bilevel` makes each page a 1-bit picture, as a scanner or copier in black and white does;
 * `--quarter-turns` turns each page that many quarters clockwise (fed sideways or upside down);
 * `--shade` darkens each page towards a corner by that much (lit by a lamp, scanned with the lid up).
 * Default: the shared real flyers (`../shared/data/flyers-real`, `../shared/data/flyers`) into
 * `bench/flyers/rasterised/`, which `npm run flyers:score` reads when it is there.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const valuesOf = (flag: string) => args.flatMap((a, i) => (a === flag && args[i + 1] ? [args[i + 1]!] : []));
const dirs =
  valuesOf('--dir').length > 0
    ? valuesOf('--dir').map((d) => path.resolve(d))
    : [path.join(root, '../shared/data/flyers-real'), path.join(root, '../shared/data/flyers')];
const out = path.resolve(valuesOf('--out')[0] ?? path.join(root, 'bench/flyers/rasterised'));
const dpi = Number(valuesOf('--dpi')[0] ?? 150);
const quality = Number(valuesOf('--quality')[0] ?? 85);
const degrees = Number(valuesOf('--degrees')[0] ?? 0);
const bilevel = args.includes('--bilevel');
const quarterTurns = Number(valuesOf('--quarter-turns')[0] ?? 0);
const shade = Number(valuesOf('--shade')[0] ?? 0);
if (
  !(dpi >= 50 && dpi <= 400) ||
  !(quality >= 10 && quality <= 100) ||
  !(Math.abs(degrees) <= 10) ||
  ![0, 1, 2, 3].includes(quarterTurns) ||
  !(shade >= 0 && shade <= 0.8)
) {
  console.error(
    '--dpi must be 50-400, --quality 10-100, --degrees -10-10, --quarter-turns 0-3 and --shade 0-0.8',
  );
  process.exit(1);
}

mkdirSync(out, { recursive: true });
let written = 0;
for (const dir of dirs) {
  if (!existsSync(dir)) {
    console.log(`skipped ${dir}: not there`);
    continue;
  }
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.pdf'))
    .sort()) {
    const labelsFile = path.join(dir, file.replace(/\.pdf$/, '.labels.json'));
    if (!existsSync(labelsFile)) continue;
    const labels = JSON.parse(readFileSync(labelsFile, 'utf8')) as FlyerLabels & Record<string, unknown>;
    const flyer = await rasteriseFlyer(new Uint8Array(readFileSync(path.join(dir, file))), labels, {
      dpi,
      quality,
      degrees,
      bilevel,
      quarterTurns,
      shade,
    });
    if (!flyer) {
      console.log(`skipped ${file}: no text layer (already image-only)`);
      continue;
    }
    const name = `rasterised-${file.replace(/\.pdf$/, '')}`;
    writeFileSync(path.join(out, `${name}.pdf`), flyer.pdf);
    writeFileSync(
      path.join(out, `${name}.labels.json`),
      `${JSON.stringify({ ...flyer.labels, file: `${name}.pdf` }, null, 1)}\n`,
    );
    written += 1;
  }
}
console.log(`${written} flyers in ${out} (${dpi} dpi, ${bilevel ? '1-bit' : `JPEG quality ${quality}`})`);
