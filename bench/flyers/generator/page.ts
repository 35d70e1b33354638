import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { flyerFonts } from './fonts.ts';
import { amount, localDigits, money, wholeMoney, type Locale } from './locales.ts';
import { pick, type PlannedOffer } from './plan.ts';

/** A4 at 150 dpi, the resolution flyer PDFs usually embed their page images at. */
export const PAGE_WIDTH = 1240;
export const PAGE_HEIGHT = 1754;
const HEADER = 230;
const FOOTER = 70;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PageSpec {
  locale: Locale;
  store: string;
  validity: string | null;
  pageNumber: number;
  columns: number;
  rows: number;
  offers: PlannedOffer[];
  theme: { band: string; accent: string; paper: string };
}

/** Draws one flyer page and returns it as a JPEG (no text layer anywhere). */
export function drawPage(spec: PageSpec, random: () => number, quality = 80): Buffer {
  const canvas = createCanvas(PAGE_WIDTH, PAGE_HEIGHT);
  const g = canvas.getContext('2d');
  g.fillStyle = spec.theme.paper;
  g.fillRect(0, 0, PAGE_WIDTH, PAGE_HEIGHT);
  drawHeader(g, spec);
  spec.offers.forEach((offer, i) => {
    const box = tileBox(i, spec.columns, spec.rows);
    drawTile(g, box, offer, spec, random);
  });
  drawText(g, spec.locale.footer(spec.pageNumber), {
    x: spec.locale.rtl ? PAGE_WIDTH - 30 : 30,
    y: PAGE_HEIGHT - 28,
    font: `22px ${flyerFonts().regular}`,
    colour: '#333',
    rtl: spec.locale.rtl,
  });
  return canvas.toBuffer('image/jpeg', quality);
}

/** The i-th tile of a grid of columns × rows, left to right and top to bottom. */
export function tileBox(i: number, columns: number, rows: number): Box {
  const tileW = (PAGE_WIDTH - 40) / columns;
  const tileH = (PAGE_HEIGHT - HEADER - FOOTER - 20) / rows;
  return {
    x: 20 + (i % columns) * tileW + 8,
    y: HEADER + 10 + Math.floor(i / columns) * tileH + 8,
    w: tileW - 16,
    h: tileH - 16,
  };
}

function drawHeader(g: SKRSContext2D, spec: PageSpec): void {
  const fonts = flyerFonts();
  const rtl = spec.locale.rtl;
  g.fillStyle = spec.theme.band;
  g.fillRect(0, 0, PAGE_WIDTH, HEADER);
  const storeFont = rtl ? `bold 84px ${fonts.arabic}` : `bold 84px ${fonts.condensed}`;
  drawText(g, spec.store, { x: rtl ? PAGE_WIDTH - 40 : 40, y: 110, font: storeFont, colour: '#fff', rtl });
  if (spec.validity) {
    const font = rtl ? `bold 34px ${fonts.arabic}` : `bold 34px ${fonts.bold}`;
    drawText(g, spec.validity, { x: rtl ? PAGE_WIDTH - 40 : 40, y: 180, font, colour: '#fff6c0', rtl });
  }
}

function drawTile(
  g: SKRSContext2D,
  box: Box,
  offer: PlannedOffer,
  spec: PageSpec,
  random: () => number,
): void {
  const { locale } = spec;
  const fonts = flyerFonts();
  g.fillStyle = '#ffffff';
  g.fillRect(box.x, box.y, box.w, box.h);
  g.strokeStyle = spec.theme.accent;
  g.lineWidth = 3;
  g.strokeRect(box.x, box.y, box.w, box.h);
  const rtl = locale.rtl;
  const nameFont = rtl ? `bold 32px ${fonts.arabic}` : `bold 32px ${fonts.condensed}`;
  const lines = wrap(g, offer.product.name, nameFont, box.w - 28);
  const layout = tileLayout(box, lines.length, offer, locale);
  drawPhoto(g, { x: box.x + 10, y: box.y + 10, w: box.w - 20, h: layout.photoHeight }, box.h * 0.38, random);

  const edge = rtl ? box.x + box.w - 14 : box.x + 14;
  lines.forEach((line, i) =>
    drawText(g, line, { x: edge, y: layout.nameBaselines[i]!, font: nameFont, colour: '#111', rtl }),
  );
  if (layout.packBaseline !== undefined) {
    const packFont = rtl ? `24px ${fonts.arabic}` : `24px ${fonts.regular}`;
    drawText(g, localDigits(offer.product.sold, locale), {
      x: edge,
      y: layout.packBaseline,
      font: packFont,
      colour: '#444',
      rtl,
    });
  }
  drawPriceBlock(g, box, layout, offer, spec, random);
}

/** Where a tile's parts go (canvas pixels; y of text is its baseline). */
export interface TileLayout {
  photoHeight: number;
  nameBaselines: number[];
  packBaseline?: number;
  /** The regular/member price note, when the offer prints one. */
  noteBaseline?: number;
  priceBaseline: number;
  /** The top of the big price's tallest glyphs. */
  priceTop: number;
}

const NAME_LEADING = 36;
const PACK_LEADING = 30;
/** Room under a small line's baseline for its descenders and a gap before the next element. */
const CLEARANCE = 12;

/**
 * The photo gives up height so that the name, pack size and regular-price note all sit above the
 * big price: flyers never print text over their prices.
 */
export function tileLayout(box: Box, nameLines: number, offer: PlannedOffer, locale: Locale): TileLayout {
  const packed = offer.product.sold !== 'weight' && offer.product.sold !== 'each';
  const noted = offer.regular !== null && ['member', 'was', 'percent'].includes(offer.style);
  const priceAscent = offer.style === 'multibuy' ? 52 : locale.superscriptCents ? 72 : 54;
  const priceBaseline = box.y + box.h - 40;
  const priceTop = priceBaseline - priceAscent;
  // Baselines measured from the photo's bottom edge, then the photo takes the height left.
  const names = Array.from({ length: nameLines }, (_, i) => 42 + i * NAME_LEADING);
  let below = 42 + nameLines * NAME_LEADING;
  const pack = packed ? below : undefined;
  if (packed) below += PACK_LEADING;
  const note = noted ? below + 8 : undefined;
  const last = note ?? pack ?? names.at(-1)!;
  const room = priceTop - CLEARANCE - (box.y + 10) - last;
  const photoHeight = Math.max(box.h * 0.15, Math.min(box.h * 0.38, room));
  const at = (offset: number | undefined) =>
    offset === undefined ? undefined : box.y + 10 + photoHeight + offset;
  const nameBaselines = names.map((n) => at(n)!);
  const packBaseline = at(pack);
  const noteBaseline = at(note);
  return { photoHeight, nameBaselines, packBaseline, noteBaseline, priceBaseline, priceTop };
}

/** Photos stood in by coloured shapes, a gradient and sensor noise. */
function drawPhoto(g: SKRSContext2D, box: Box, fullHeight: number, random: () => number): void {
  const gradient = g.createLinearGradient(box.x, box.y, box.x + box.w, box.y + box.h);
  gradient.addColorStop(0, `hsl(${Math.floor(random() * 360)}, 40%, 85%)`);
  gradient.addColorStop(1, `hsl(${Math.floor(random() * 360)}, 35%, 70%)`);
  g.fillStyle = gradient;
  g.fillRect(box.x, box.y, box.w, box.h);
  for (let i = 0; i < 6; i += 1) {
    g.fillStyle = `hsl(${Math.floor(random() * 360)}, ${50 + random() * 40}%, ${35 + random() * 35}%)`;
    g.beginPath();
    g.ellipse(
      box.x + box.w * (0.2 + random() * 0.6),
      box.y + box.h * (0.25 + random() * 0.5),
      box.w * (0.08 + random() * 0.15),
      box.h * (0.1 + random() * 0.2),
      random() * Math.PI,
      0,
      Math.PI * 2,
    );
    g.fill();
  }
  // As many grains as a full-height photo draws, so that a page's random sequence (and so the rest
  // of the flyer) does not depend on how much height its photos gave up.
  for (let i = 0; i < (box.w * fullHeight) / 60; i += 1) {
    const shade = Math.floor(random() * 255);
    g.fillStyle = `rgba(${shade},${shade},${shade},0.25)`;
    g.fillRect(box.x + random() * box.w, box.y + random() * box.h, 2, 2);
  }
}

function drawPriceBlock(
  g: SKRSContext2D,
  box: Box,
  layout: TileLayout,
  offer: PlannedOffer,
  spec: PageSpec,
  random: () => number,
): void {
  const { locale } = spec;
  const fonts = flyerFonts();
  const rtl = locale.rtl;
  const script = rtl ? fonts.arabic : fonts.regular;
  const priceColour = pick(random, ['#d0021b', '#c2185b', '#111111', '#0b5394']);
  const baseline = layout.priceBaseline;
  const unitPrinted =
    offer.product.sold === 'weight'
      ? locale.weight.printed
      : offer.product.sold === 'each'
        ? locale.each.printed
        : '';

  if (offer.style === 'multibuy' && offer.multibuy) {
    const text = locale.multibuy(
      localDigits(String(offer.multibuy.count), locale),
      wholeMoney(offer.multibuy.total, locale),
    );
    drawText(g, text, {
      x: rtl ? box.x + box.w - 14 : box.x + 14,
      y: baseline,
      font: fittedFont(g, text, rtl ? 60 : 70, rtl ? fonts.arabic : fonts.condensed, box.w - 28),
      colour: priceColour,
      rtl,
    });
    return;
  }

  const priceLeft = rtl ? box.x + 20 : box.x + 14;
  const width = drawBigPrice(g, offer.price, priceLeft, baseline, priceColour, locale);
  if (unitPrinted) {
    drawText(g, unitPrinted, {
      x: priceLeft + width + 10,
      y: baseline,
      font: `bold 30px ${rtl ? fonts.arabic : fonts.condensed}`,
      colour: priceColour,
      rtl: false,
    });
  }
  const note = { x: rtl ? box.x + box.w - 14 : box.x + 14, y: layout.noteBaseline ?? 0, rtl };
  if (offer.style === 'member' && offer.regular !== null) {
    drawText(g, locale.member(money(offer.regular, locale)), {
      ...note,
      font: `24px ${script}`,
      colour: '#333',
    });
  } else if (offer.style === 'was' && offer.regular !== null) {
    const text = locale.was(money(offer.regular, locale));
    const w = drawText(g, text, { ...note, font: `26px ${script}`, colour: '#555' });
    g.strokeStyle = '#d0021b';
    g.lineWidth = 2;
    const from = rtl ? note.x - w : note.x;
    g.beginPath();
    g.moveTo(from + w * 0.45, note.y - 9);
    g.lineTo(from + w, note.y - 9);
    g.stroke();
  } else if (offer.style === 'percent' && offer.save !== null && offer.regular !== null) {
    badge(
      g,
      box,
      `-${localDigits(String(offer.save), locale)} %`,
      spec.theme.accent,
      rtl ? fonts.arabic : fonts.condensed,
      rtl,
    );
    drawText(g, locale.was(money(offer.regular, locale)), {
      ...note,
      font: `24px ${script}`,
      colour: '#555',
    });
  } else if (offer.style === 'save' && offer.save !== null) {
    badge(
      g,
      box,
      locale.save(money(offer.save, locale)),
      spec.theme.accent,
      rtl ? fonts.arabic : fonts.condensed,
      rtl,
    );
  }
}

/** "$1⁹⁹": currency and cents raised and small when the market prints them so. */
function drawBigPrice(
  g: SKRSContext2D,
  value: number,
  left: number,
  baseline: number,
  colour: string,
  locale: Locale,
): number {
  const fonts = flyerFonts();
  const face = locale.rtl ? fonts.arabic : fonts.condensed;
  g.fillStyle = colour;
  if (!locale.superscriptCents) {
    const text = money(value, locale);
    return drawText(g, text, { x: left, y: baseline, font: `bold 72px ${face}`, colour, rtl: false });
  }
  const [whole, cents] = value.toFixed(2).split('.') as [string, string];
  let x = left;
  const small = `bold 44px ${face}`;
  const big = `bold 96px ${face}`;
  if (whole === '0' && locale.symbol === '$') {
    x += drawText(g, cents, { x, y: baseline, font: big, colour, rtl: false });
    return x - left + drawText(g, '¢', { x, y: baseline - 36, font: small, colour, rtl: false });
  }
  if (locale.symbolBefore)
    x += drawText(g, `${locale.symbol}`, { x, y: baseline - 40, font: small, colour, rtl: false }) + 2;
  x += drawText(g, whole, { x, y: baseline, font: big, colour, rtl: false });
  if (locale.decimal === ',' && !locale.symbolBefore)
    x += drawText(g, ',', { x, y: baseline, font: big, colour, rtl: false });
  x += drawText(g, amount(Number(`0.${cents}`), locale).slice(-2), {
    x,
    y: baseline - 40,
    font: small,
    colour,
    rtl: false,
  });
  if (!locale.symbolBefore)
    x += drawText(g, ` ${locale.symbol}`, { x, y: baseline, font: small, colour, rtl: false });
  return x - left;
}

function badge(g: SKRSContext2D, box: Box, text: string, colour: string, face: string, rtl: boolean): void {
  const font = `bold 30px ${face}`;
  g.font = font;
  const w = g.measureText(text).width + 30;
  const x = rtl ? box.x + 16 : box.x + box.w - w - 16;
  const y = box.y + 20;
  g.fillStyle = colour;
  g.beginPath();
  g.roundRect(x, y, w, 54, 27);
  g.fill();
  drawText(g, text, { x: rtl ? x + w - 15 : x + 15, y: y + 39, font, colour: '#fff', rtl });
}

interface TextSpec {
  x: number;
  y: number;
  font: string;
  colour: string;
  rtl: boolean;
}

/** Draws text from x (its right edge when right-to-left) and returns its width. */
/**
 * A bold face at `size`, or smaller when `text` would be wider than `room`: flyers print a price
 * whole within its tile ("Leve 4 por R$ 18" in a narrow one is set smaller, never cut off).
 */
export function fittedFont(g: SKRSContext2D, text: string, size: number, face: string, room: number): string {
  g.font = `bold ${size}px ${face}`;
  const width = g.measureText(text).width;
  return `bold ${width > room ? Math.floor((size * room) / width) : size}px ${face}`;
}

function drawText(g: SKRSContext2D, text: string, spec: TextSpec): number {
  g.font = spec.font;
  g.fillStyle = spec.colour;
  g.direction = spec.rtl ? 'rtl' : 'ltr';
  g.textAlign = spec.rtl ? 'right' : 'left';
  g.fillText(text, spec.x, spec.y);
  const width = g.measureText(text).width;
  g.direction = 'ltr';
  g.textAlign = 'left';
  return width;
}

function wrap(g: SKRSContext2D, text: string, font: string, width: number): string[] {
  g.font = font;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && g.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines.slice(0, 2);
}
