import { PDFDocument } from 'pdf-lib';
import type { FlyerLabels, LabelledOffer } from '../scoring.ts';
import type { Locale } from './locales.ts';
import { drawPage, PAGE_HEIGHT, PAGE_WIDTH } from './page.ts';
import { pick, planOffer, seededRandom, type PlannedOffer } from './plan.ts';

export interface GeneratedImageFlyer {
  name: string;
  pdf: Uint8Array;
  labels: FlyerLabels & Record<string, unknown>;
}

const THEMES = [
  { band: '#c8102e', accent: '#f2a900', paper: '#fff8e7' },
  { band: '#00663a', accent: '#e4002b', paper: '#f4fbf4' },
  { band: '#003b7a', accent: '#ffcc00', paper: '#f5f7fb' },
  { band: '#6a1b9a', accent: '#ff6f00', paper: '#fdf6ff' },
];

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/**
 * An image-only flyer (JPEG pages, no text layer) in one market's conventions, with the labels of
 * every offer drawn on it in the format of `../shared/data/flyers-real/README.md`.
 */
export async function generateImageFlyer(
  locale: Locale,
  seed: number,
  options: { pages?: number; jpegQuality?: number } = {},
): Promise<GeneratedImageFlyer> {
  const random = seededRandom(seed);
  const pages = options.pages ?? 2;
  const store = pick(random, locale.stores);
  const theme = pick(random, THEMES);
  const from = new Date(
    Date.UTC(2025 + Math.floor(random() * 2), Math.floor(random() * 12), 1 + Math.floor(random() * 20)),
  );
  const until = new Date(from.getTime() + 6 * 86_400_000);
  const validityOnEveryPage = random() < 0.5;
  const pdf = await PDFDocument.create();
  const offers: LabelledOffer[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const columns = pick(random, [2, 3, 3]);
    const rows = Math.min(pick(random, [3, 4]), Math.floor(locale.products.length / columns));
    const planned = shuffled(locale.products, random)
      .slice(0, columns * rows)
      .map((product) => planOffer(random, locale, product));
    const jpeg = drawPage(
      {
        locale,
        store,
        validity: page === 1 || validityOnEveryPage ? locale.validity(from, until) : null,
        pageNumber: page,
        columns,
        rows,
        offers: planned,
        theme,
      },
      random,
      options.jpegQuality,
    );
    const image = await pdf.embedJpg(jpeg);
    const pdfPage = pdf.addPage([595.28, 841.89]);
    pdfPage.drawImage(image, { x: 0, y: 0, width: 595.28, height: 841.89 });
    offers.push(...planned.map((offer) => label(offer, page)));
  }
  const name = `generated-${locale.code.toLowerCase()}-${seed}`;
  return {
    name,
    pdf: await pdf.save(),
    labels: {
      file: `${name}.pdf`,
      source: { generator: 'bench/flyers/generate.ts', seed, page_pixels: [PAGE_WIDTH, PAGE_HEIGHT] },
      store,
      kind: 'image-only',
      language: locale.language,
      currency: locale.currency,
      validity: { valid_from: isoDate(from), valid_until: isoDate(until) },
      pages,
      pages_labelled: Array.from({ length: pages }, (_, i) => i + 1),
      notes: `Generated: JPEG pages drawn in ${locale.code} conventions; no text layer.`,
      offers,
    },
  };
}

function label(offer: PlannedOffer, page: number): LabelledOffer & Record<string, unknown> {
  return {
    page,
    product: offer.product.name,
    brand: '',
    price: offer.price,
    regular_price: offer.regular,
    unit: offer.unitLabel,
    style: offer.style,
    ...(offer.multibuy ? { multibuy: `${offer.multibuy.count} for ${offer.multibuy.total}` } : {}),
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
