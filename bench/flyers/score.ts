import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../../src/platform/config.ts';
import { createLlmProvider } from '../../src/providers/llm/index.ts';
import { createFlyerReader } from '../../src/modules/stores/module.ts';
import {
  forScoring,
  matchOffers,
  scoreFlyer,
  type ExtractedOfferForScoring,
  type FlyerLabels,
  type FlyerScore,
} from './scoring.ts';

/**
 * npm run flyers:score [-- --dir <folder> ...] [--json <file>] [--only <name-part>] [--show] [--all] [--cold]
 *   [--candidates <file>] [--words-out <file>]
 * Runs the production flyer reader (the workers' composition, with the model when LLM settings are
 * in the environment) on every PDF of a folder that has `<name>.labels.json` beside it, and prints
 * per flyer and in total: candidates, precision, recall, price and regular-price accuracy, validity,
 * outliers (price over 10x the median without a unit that explains it) and seconds per page.
 * Reports only; it does not enforce the targets.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const valuesOf = (flag: string) => args.flatMap((a, i) => (a === flag && args[i + 1] ? [args[i + 1]!] : []));
const defaultDirs = [
  path.join(root, '../shared/data/flyers-real'),
  path.join(root, '../shared/data/flyers'),
  path.join(root, 'bench/flyers/generated'),
  path.join(root, 'bench/flyers/rasterised'),
];
const dirs = valuesOf('--dir').length > 0 ? valuesOf('--dir').map((d) => path.resolve(d)) : defaultDirs;
const only = valuesOf('--only')[0];
const jsonOut = valuesOf('--json')[0];
/** --candidates writes every candidate scored, one JSON line each, matched or not (to weigh a threshold). */
const candidatesOut = valuesOf('--candidates')[0];
const candidateLines: string[] = [];
/**
 * --words-out records every page's layout input (OCR's words after their repairs, or the text
 * layer's items), one JSON line each, for `npm run flyers:relayout` to score layout rules on.
 */
const wordsOut = valuesOf('--words-out')[0];
const layoutInputs: string[] = [];
/** The labels of the flyer being read, for the recorded pages to name. */
let readingLabels = '';
/** --show prints every extracted offer beside the labels of its page (to see what was missed). */
const show = args.includes('--show');
/** Candidates below CANDIDATE_MIN_CONFIDENCE are not listed to the admin, so not scored (--all: they are). */
const includeLowConfidence = args.includes('--all');
/**
 * OCR's models are loaded before the first flyer is timed, as a worker process loads them when it
 * starts (`npm run worker`); --cold times a fresh process instead (its first image page pays).
 */
const cold = args.includes('--cold');

interface Row extends FlyerScore {
  flyer: string;
  pages: number;
  secondsPerPage: number;
  cpuSecondsPerPage: number;
}

async function scoreFolder(
  dir: string,
  read: ReturnType<typeof createFlyerReader>['reader'],
): Promise<Row[]> {
  if (!existsSync(dir)) {
    console.log(`skipped ${dir}: not there`);
    return [];
  }
  const rows: Row[] = [];
  const pdfs = readdirSync(dir)
    .filter((f) => f.endsWith('.pdf') && existsSync(path.join(dir, f.replace(/\.pdf$/, '.labels.json'))))
    .filter((f) => !only || f.includes(only))
    .sort();
  for (const file of pdfs) {
    const labels = JSON.parse(
      readFileSync(path.join(dir, file.replace(/\.pdf$/, '.labels.json')), 'utf8'),
    ) as FlyerLabels;
    const bytes = new Uint8Array(readFileSync(path.join(dir, file)));
    readingLabels = path.join(dir, file.replace(/\.pdf$/, '.labels.json'));
    const started = performance.now();
    const cpu = process.cpuUsage();
    const run = await read.open(bytes, uploadDateOf(labels));
    const offers: ExtractedOfferForScoring[] = [];
    try {
      for (let page = 1; page <= run.pageCount; page += 1) {
        for (const offer of await run.extractPage(page)) {
          if (offer.confidence < minConfidence) continue; // kept for audit, not listed
          offers.push(forScoring(page, offer));
        }
      }
    } finally {
      await run.close();
    }
    if (show) printSideBySide(file, labels, offers);
    if (candidatesOut) candidateLines.push(...candidateRecords(file, labels, offers));
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    rows.push({
      flyer: file.replace(/\.pdf$/, ''),
      pages: run.pageCount,
      secondsPerPage: seconds / Math.max(1, run.pageCount),
      cpuSecondsPerPage: (used.user + used.system) / 1e6 / Math.max(1, run.pageCount),
      ...scoreFlyer(labels, offers),
    });
  }
  return rows;
}

function candidateRecords(file: string, labels: FlyerLabels, offers: ExtractedOfferForScoring[]): string[] {
  const matched = new Set<object>(matchOffers(labels, offers).flat());
  return offers
    .filter((o) => labels.pages_labelled.includes(o.page))
    .map((o) => JSON.stringify({ flyer: file, ...o, matched: matched.has(o) }));
}

/** Each page's labels and extracted offers; `✓` marks the ones that matched, `✗` the others. */
function printSideBySide(file: string, labels: FlyerLabels, offers: ExtractedOfferForScoring[]): void {
  const pairs = matchOffers(labels, offers);
  const matched = new Set<object>(pairs.flat());
  const mark = (o: object) => (matched.has(o) ? '✓' : '✗');
  console.log(`\n${file}`);
  for (const page of labels.pages_labelled) {
    console.log(`  page ${page}`);
    for (const l of labels.offers.filter((o) => o.page === page)) {
      console.log(
        `  ${mark(l)} label     ${l.price.toFixed(2)} ${l.regular_price ?? ''} | ${l.product} | ${l.unit ?? ''}`,
      );
    }
    for (const o of offers.filter((x) => x.page === page)) {
      console.log(
        `  ${mark(o)} extracted ${o.price.toFixed(2)} ${o.regularPrice ?? ''} | ${o.product} | ${o.unit} | ${o.confidence?.toFixed(2) ?? ''}`,
      );
    }
  }
}

/**
 * The reader defaults validity to a week from upload; uploading "during" the flyer's week (its
 * printed start, else a week before its end) makes relative dates (no year printed) resolve as
 * they would for the shop's own upload.
 */
function uploadDateOf(labels: FlyerLabels): Date {
  const from = labels.validity?.valid_from;
  const until = labels.validity?.valid_until;
  if (from) return new Date(`${from}T09:00:00Z`);
  if (until) return new Date(new Date(`${until}T09:00:00Z`).getTime() - 6 * 86_400_000);
  return new Date();
}

const pct = (x: number) => `${(100 * x).toFixed(0)} %`;

function printTable(rows: Row[]): void {
  console.log(
    '| flyer | pages | candidates | labelled | matched | precision | recall | price acc. | regular acc. | validity | outliers | s/page (cpu) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const validity = r.validityRight === undefined ? '–' : r.validityRight ? 'right' : 'wrong';
    console.log(
      `| ${r.flyer} | ${r.pages} | ${r.extracted} | ${r.labelled} | ${r.matched} | ${pct(r.precision)} | ${pct(r.recall)} | ` +
        `${r.pricePairs ? pct(r.priceAccuracy) : '–'} | ${r.matched ? pct(r.regularAccuracy) : '–'} | ${validity} | ${r.outliers} | ` +
        `${r.secondsPerPage.toFixed(2)} (${r.cpuSecondsPerPage.toFixed(2)}) |`,
    );
  }
  const sum = (f: (r: Row) => number) => rows.reduce((n, r) => n + f(r), 0);
  const extracted = sum((r) => r.extracted);
  const labelled = sum((r) => r.labelled);
  const matched = sum((r) => r.matched);
  const pages = sum((r) => r.pages);
  const withValidity = rows.filter((r) => r.validityRight !== undefined);
  console.log(
    `| **total** | ${pages} | ${extracted} | ${labelled} | ${matched} | ${pct(extracted ? matched / extracted : 0)} | ` +
      `${pct(labelled ? matched / labelled : 0)} | – | – | ${withValidity.filter((r) => r.validityRight).length}/${withValidity.length} right | ` +
      `${sum((r) => r.outliers)} | ${(sum((r) => r.secondsPerPage * r.pages) / Math.max(1, pages)).toFixed(2)} |`,
  );
}

const config = parseConfig({ ...process.env, LOG_LEVEL: 'silent' });
const llm = createLlmProvider(config.llm);
const minConfidence = includeLowConfidence ? 0 : config.candidateMinConfidence;
const { reader, close } = createFlyerReader(
  llm,
  config.flyerLimits,
  wordsOut
    ? (page, items) => layoutInputs.push(JSON.stringify({ labels: readingLabels, page, items }))
    : undefined,
);
const mode =
  llm.isConfigured('recipe') || llm.isConfigured('vision') ? `model (${config.llm.provider})` : 'no model';
console.log(`flyer reader: ${mode}`);
const rows: Row[] = [];
try {
  if (!cold) {
    const started = performance.now();
    await reader.warmUp();
    console.log(
      `OCR models loaded in ${((performance.now() - started) / 1000).toFixed(1)} s, before timing (--cold: after)`,
    );
  }
  for (const dir of dirs) {
    const folderRows = await scoreFolder(dir, reader);
    if (folderRows.length === 0) continue;
    console.log(`\n${path.relative(process.cwd(), dir) || dir}`);
    printTable(folderRows);
    rows.push(...folderRows);
  }
  if (rows.length > 0 && dirs.length > 1) {
    console.log('\nall folders');
    printTable(rows);
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ mode, rows }, null, 2));
  if (candidatesOut) writeFileSync(candidatesOut, candidateLines.map((l) => `${l}\n`).join(''));
  if (wordsOut) writeFileSync(wordsOut, layoutInputs.map((l) => `${l}\n`).join(''));
} finally {
  await close();
}
