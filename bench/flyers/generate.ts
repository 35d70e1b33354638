import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { flyerFontsAvailable, FONT_PACKAGES } from './generator/fonts.ts';
import { generateImageFlyer } from './generator/flyer.ts';
import { LOCALES } from './generator/locales.ts';

/**
 * npm run flyers:generate [-- --out <folder>] [--seed <n>] [--per-locale <n>] [--pages <n>]
 * Draws image-only flyers (JPEG pages, no text layer) in every market the generator knows (en-US,
 * en-CA, fr, de, es, pt-BR, Persian, Arabic) with `<name>.labels.json` beside each, the format
 * `npm run flyers:score` reads. Same seed, same flyers.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const valueOf = (flag: string) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const out = path.resolve(valueOf('--out') ?? path.join(root, 'bench/flyers/generated'));
const seed = Number(valueOf('--seed') ?? 1);
const perLocale = Number(valueOf('--per-locale') ?? 1);
const pages = Number(valueOf('--pages') ?? 2);

if (!flyerFontsAvailable()) {
  console.error(`fonts missing: install the Debian packages ${FONT_PACKAGES.join(' ')}`);
  process.exit(1);
}
mkdirSync(out, { recursive: true });
let written = 0;
for (const [index, locale] of LOCALES.entries()) {
  for (let n = 0; n < perLocale; n += 1) {
    const flyer = await generateImageFlyer(locale, seed * 1000 + index * 10 + n, { pages });
    writeFileSync(path.join(out, `${flyer.name}.pdf`), flyer.pdf);
    writeFileSync(path.join(out, `${flyer.name}.labels.json`), `${JSON.stringify(flyer.labels, null, 1)}\n`);
    written += 1;
  }
}
console.log(`${written} flyers in ${out}`);
