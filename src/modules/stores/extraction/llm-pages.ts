import { z } from 'zod';
import { generateObject, type LlmProvider } from '../../../providers/llm/index.ts';
import type { PdfPage } from '../../../providers/pdf/pdf.ts';
import type { ImagePageOffersSource, PageOffersSource } from './flyer-reader.ts';
import type { ParsedOffer } from './layout.ts';
import { round2 } from './prices.ts';

const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .nullable()
  .default(null)
  .catch(null);

const OfferList = z.object({
  /** The last day the whole flyer (or this page) says its offers are valid, when printed. */
  valid_until: IsoDate,
  offers: z
    .array(
      z.object({
        product: z.string().min(1).max(200),
        brand: z.string().max(100).default(''),
        original_price: z.number().positive().max(10_000).nullable().default(null),
        discounted_price: z.number().positive().max(10_000),
        unit: z.string().max(50).default(''),
        /** A date printed for this offer alone. */
        valid_until: IsoDate,
      }),
    )
    .max(200),
});

const SYSTEM = `You extract grocery offers from the text of one page of a store's promotional flyer.
Each offer: product name (without price or unit words), brand ('' if none), original_price (the
regular or struck-through price, null if none), discounted_price (the offer price; for "2 for $5"
the price of one), unit as printed ("per kg", "each", "500 g", "1 Sack (10Kg)"; '' if none).
valid_until: the last day of validity printed for the whole flyer or page (YYYY-MM-DD, null if none);
an offer's own valid_until only when a date is printed for that offer alone.
Ignore addresses, phone numbers and opening hours. A price is never a date. Never invent offers.`;

/**
 * Structured extraction through the configured model (RECIPE_MODEL): the page's text, one line per
 * visual line with cells separated by " | ", goes in; schema-validated offers come out. Used only
 * when a model is configured; the layout parser takes over when it fails.
 */
export class LlmPageOffers implements PageOffersSource {
  readonly #llm: LlmProvider;

  constructor(llm: LlmProvider) {
    this.#llm = llm;
  }

  async offers(page: PdfPage, _document: unknown, pageText: string): Promise<ParsedOffer[]> {
    const lines = page.items.length ? layoutText(page) : pageText;
    const { object } = await generateObject(this.#llm, {
      purpose: 'recipe',
      schema: OfferList,
      system: SYSTEM,
      schemaName: 'flyer_offers',
      prompt: `Flyer page ${page.number}:\n${lines.slice(0, 12_000)}`,
      temperature: 0,
    });
    return toOffers(object, 0.8);
  }
}

const VISION_SYSTEM = SYSTEM.replace('from the text of one page', 'from the pictures of one page');

/**
 * Image-only pages (scans) read by a vision-capable model (VISION_MODEL): the page's pictures go in
 * as PNG, the same schema-validated offers come out. The reader falls back to OCR when it fails.
 */
export class VisionPageOffers implements ImagePageOffersSource {
  readonly #llm: LlmProvider;

  constructor(llm: LlmProvider) {
    this.#llm = llm;
  }

  async offers(pageNumber: number, pngs: Buffer[]): Promise<ParsedOffer[]> {
    const { object } = await generateObject(this.#llm, {
      purpose: 'vision',
      schema: OfferList,
      system: VISION_SYSTEM,
      schemaName: 'flyer_offers',
      prompt: `Flyer page ${pageNumber}, as ${pngs.length === 1 ? 'a picture' : `${pngs.length} pictures`}.`,
      images: pngs.map((png) => ({ mediaType: 'image/png', data: png.toString('base64') })),
      temperature: 0,
    });
    // Read from pixels: as uncertain as OCR, more than a text layer.
    return toOffers(object, 0.7);
  }
}

function toOffers(list: z.infer<typeof OfferList>, confidence: number): ParsedOffer[] {
  return list.offers.map((o) => {
    const discounted = round2(o.discounted_price);
    const original = round2(Math.max(o.original_price ?? discounted, discounted));
    return {
      product: o.product.trim(),
      brand: o.brand.trim(),
      originalPrice: original,
      discountedPrice: discounted,
      unit: o.unit.trim(),
      confidence,
      // The model's reading of the printed validity: the offer's own, else the page's.
      ...((o.valid_until ?? list.valid_until) ? { validUntil: (o.valid_until ?? list.valid_until)! } : {}),
    };
  });
}

function layoutText(page: PdfPage): string {
  const sorted = [...page.items].sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: Array<typeof sorted> = [];
  for (const item of sorted) {
    const line = lines.at(-1);
    if (line?.[0] && Math.abs(line[0].y - item.y) < Math.max(line[0].height, item.height) * 0.5)
      line.push(item);
    else lines.push([item]);
  }
  return lines
    .map((line) =>
      line
        .sort((a, b) => a.x - b.x)
        .map((i) => i.text)
        .join(' | '),
    )
    .join('\n');
}
