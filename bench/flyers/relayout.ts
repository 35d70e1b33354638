import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseConfig } from '../../src/platform/config.ts';
import { parseLayout, type LayoutItem } from '../../src/modules/stores/extraction/layout.ts';
import {
  forScoring,
  matchOffers,
  scoreFlyer,
  type ExtractedOfferForScoring,
  type FlyerLabels,
} from './scoring.ts';

/**
 * npm run flyers:relayout -- --words <file> [--words <file> ...] [--only <name-part>] [--show] [--all]
 * Scores the layout parser alone on the pages `flyers:score --words-out <file>` recorded: each
 * page's items as the parser was given them, so a layout rule is measured on a whole set in
 * seconds, without OCR. The offers' validity is not scored (it is read before the layout), and
 * the model, when one is configured, is not asked. Reports only.
 */
const args = process.argv.slice(2);
const valuesOf = (flag: string) => args.flatMap((a, i) => (a === flag && args[i + 1] ? [args[i + 1]!] : []));
const only = valuesOf('--only')[0];
const show = args.includes('--show');
const config = parseConfig({ ...process.env, LOG_LEVEL: 'silent' });
const minConfidence = args.includes('--all') ? 0 : config.candidateMinConfidence;

interface RecordedPage {
  labels: string;
  page: number;
  items: LayoutItem[];
}

/** Each flyer's pages, by its labels file; a page recorded twice (read again from its pictures) keeps the last. */
const flyers = new Map<string, Map<number, LayoutItem[]>>();
for (const file of valuesOf('--words')) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const recorded = JSON.parse(line) as RecordedPage;
    if (only && !recorded.labels.includes(only)) continue;
    const pages = flyers.get(recorded.labels) ?? new Map<number, LayoutItem[]>();
    pages.set(recorded.page, recorded.items);
    flyers.set(recorded.labels, pages);
  }
}

const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
console.log('| flyer | candidates | labelled | matched | precision | recall |');
console.log('|---|---|---|---|---|---|');
let [candidates, labelled, matched] = [0, 0, 0];
for (const [labelsFile, pages] of flyers) {
  const labels = JSON.parse(readFileSync(labelsFile, 'utf8')) as FlyerLabels;
  const offers: ExtractedOfferForScoring[] = [];
  for (const [page, items] of pages) {
    for (const offer of parseLayout(items)) {
      if (offer.confidence >= minConfidence) offers.push(forScoring(page, offer));
    }
  }
  const score = scoreFlyer(labels, offers);
  const name = path.basename(labelsFile, '.labels.json');
  console.log(
    `| ${name} | ${score.extracted} | ${score.labelled} | ${score.matched} | ${pct(score.precision)} | ${pct(score.recall)} |`,
  );
  [candidates, labelled, matched] = [
    candidates + score.extracted,
    labelled + score.labelled,
    matched + score.matched,
  ];
  if (show) printSideBySide(labels, offers);
}
console.log(
  `| **total** | ${candidates} | ${labelled} | ${matched} | ${pct(candidates ? matched / candidates : 0)} | ${pct(labelled ? matched / labelled : 0)} |`,
);

/** `✓` marks the offers and labels that matched, `✗` the others. */
function printSideBySide(labels: FlyerLabels, offers: ExtractedOfferForScoring[]): void {
  const matchedOnes = new Set<object>(matchOffers(labels, offers).flat());
  const mark = (o: object) => (matchedOnes.has(o) ? '✓' : '✗');
  for (const page of labels.pages_labelled) {
    for (const l of labels.offers.filter((o) => o.page === page)) {
      console.log(
        `  ${page} ${mark(l)} label     ${l.price.toFixed(2)} ${l.regular_price ?? ''} | ${l.product}`,
      );
    }
    for (const o of offers.filter((x) => x.page === page)) {
      console.log(
        `  ${page} ${mark(o)} extracted ${o.price.toFixed(2)} ${o.regularPrice ?? ''} | ${o.product} | ${o.brand} | ${o.unit} | ${o.confidence?.toFixed(2)}`,
      );
    }
  }
}
