import {
  findPrices,
  findUnit,
  isOnlyUnit,
  looksLikeName,
  residualName,
  round2,
  type PriceToken,
} from './prices.ts';

/**
 * The layout-aware flyer parser. Text items (with boxes, top-left origin) are grouped into lines by
 * baseline and into cells by horizontal gaps. Two layouts are recognised and may mix on one page:
 * - rows: a line holding a name and prices ("Reis (Zarnab)   1 Sack (10Kg)   24,- €   jetzt nur 20,99 €"),
 *   however far apart; several offers on one line are split at each new name after a price;
 * - tiles: a price line without a name takes the nearest name cell above it that overlaps it
 *   horizontally (and the line above that as the brand).
 * Old versus new price: words ("was", "statt" / "now", "jetzt") decide; otherwise the higher price
 * near the lower is the struck-through regular price.
 */
export interface LayoutItem {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** OCR confidence 0..1; text-layer items are certain. */
  confidence?: number;
}

export interface ParsedOffer {
  product: string;
  brand: string;
  originalPrice: number;
  discountedPrice: number;
  unit: string;
  confidence: number;
}

interface Cell {
  text: string;
  x: number;
  y: number;
  right: number;
  bottom: number;
  height: number;
  confidence: number;
  prices: PriceToken[];
  name: string;
  unitOnly: boolean;
}

interface OfferGroup {
  nameParts: string[];
  brand?: string;
  cells: Cell[];
  prices: PriceToken[];
  units: string[];
}

export function parseLayout(items: readonly LayoutItem[]): ParsedOffer[] {
  const lines = groupLines(items).map(toCells);
  const usedAsName = new Set<Cell>();
  const groups: OfferGroup[] = [];
  const orphans: Orphan[] = [];

  lines.forEach((cells, lineIndex) => {
    if (!cells.some((c) => c.prices.length > 0)) return;
    let current: OfferGroup | undefined;
    const lineGroups: OfferGroup[] = [];
    for (const cell of cells) {
      const hasName = looksLikeName(cell.name) && !cell.unitOnly;
      if (hasName) {
        if (!current || current.prices.length > 0 || current.nameParts.length === 0) {
          current = { nameParts: [], cells: [], prices: [], units: [] };
          lineGroups.push(current);
        }
        current.nameParts.push(cell.name);
        usedAsName.add(cell);
      }
      if (!current) {
        if (cell.prices.length > 0) orphans.push({ cells: [cell], line: lineIndex });
        continue;
      }
      addCell(current, cell);
    }
    groups.push(...lineGroups);
  });

  groups.push(...resolveTiles(clusterOrphans(orphans), lines, usedAsName));
  return groups.flatMap((group) => toOffer(group) ?? []);
}

function addCell(group: OfferGroup, cell: Cell): void {
  group.cells.push(cell);
  group.prices.push(...cell.prices);
  const unit = findUnit(cell.text);
  if (unit) group.units.push(unit);
}

/** Price cells without a name on their line, with the cells of one tile's price line together. */
interface Orphan {
  cells: Cell[];
  line: number;
}

/** Neighbouring name-less price cells of one line belong to one tile (new price and struck old one). */
function clusterOrphans(orphans: Orphan[]): Orphan[] {
  const out: Orphan[] = [];
  for (const orphan of orphans) {
    const last = out.at(-1);
    const cell = orphan.cells[0]!;
    const previous = last?.cells.at(-1);
    const height = Math.max(cell.height, previous?.height ?? 0);
    if (last && previous && last.line === orphan.line && cell.x - previous.right < height * 4) {
      last.cells.push(cell);
    } else {
      out.push({ cells: [cell], line: orphan.line });
    }
  }
  return out;
}

/** Attach each name-less price cluster to the name cell above it (tile layouts). */
function resolveTiles(orphans: Orphan[], lines: Cell[][], usedAsName: Set<Cell>): OfferGroup[] {
  const byAnchor = new Map<Cell, OfferGroup>();
  for (const { cells, line } of orphans) {
    const anchor = cells.map((cell) => nameAbove(cell, line, lines, usedAsName)).find(Boolean);
    if (!anchor) continue;
    let group = byAnchor.get(anchor.product);
    if (!group) {
      group = { nameParts: [anchor.product.name], cells: [], prices: [], units: [] };
      if (anchor.brand) group.brand = anchor.brand.name;
      addUnitsOf(group, anchor.product);
      byAnchor.set(anchor.product, group);
    }
    for (const cell of cells) {
      addCell(group, cell);
      for (const unitCell of unitsNear(cell, line, lines)) addUnitsOf(group, unitCell);
    }
  }
  for (const product of byAnchor.keys()) usedAsName.add(product);
  return [...byAnchor.values()];
}

function addUnitsOf(group: OfferGroup, cell: Cell): void {
  const unit = findUnit(cell.text);
  if (unit) group.units.push(unit);
}

function overlapsHorizontally(a: Cell, b: Cell, slack: number): boolean {
  return a.x - slack < b.right && b.x - slack < a.right;
}

function nameAbove(
  price: Cell,
  lineIndex: number,
  lines: Cell[][],
  usedAsName: Set<Cell>,
): { product: Cell; brand: Cell | undefined } | undefined {
  const reach = price.height * 5;
  for (let i = lineIndex - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (line[0] && price.y - line[0].bottom > reach) break;
    const product = line.find(
      (c) =>
        !usedAsName.has(c) &&
        c.prices.length === 0 &&
        !c.unitOnly &&
        looksLikeName(c.name) &&
        overlapsHorizontally(c, price, price.height),
    );
    if (!product) continue;
    const above = lines[i - 1]?.find(
      (c) =>
        c.prices.length === 0 &&
        !c.unitOnly &&
        looksLikeName(c.name) &&
        product.y - c.bottom < product.height * 1.2 &&
        overlapsHorizontally(c, product, product.height),
    );
    return { product, brand: above };
  }
  return undefined;
}

function unitsNear(price: Cell, lineIndex: number, lines: Cell[][]): Cell[] {
  const out: Cell[] = [];
  for (const i of [lineIndex, lineIndex + 1]) {
    for (const c of lines[i] ?? []) {
      if (c !== price && c.unitOnly && overlapsHorizontally(c, price, price.height * 2)) out.push(c);
    }
  }
  return out;
}

function toOffer(group: OfferGroup): ParsedOffer | undefined {
  if (group.prices.length === 0 || group.nameParts.length === 0) return undefined;
  const { original, discounted } = choosePrices(group.prices);
  let name = group.nameParts.join(' ').replace(/\s+/g, ' ').trim();
  let brand = group.brand?.trim() ?? '';
  if (!brand) {
    const inParens = /^(.*\S)\s*\(([^()]+)\)$/.exec(name);
    if (inParens && looksLikeName(inParens[2]!)) {
      name = inParens[1]!;
      brand = inParens[2]!.trim();
    }
  }
  if (!looksLikeName(name)) return undefined;
  const multiBuy = group.prices.some((p) => p.multiBuy);
  const unit = group.units[0] ?? (multiBuy ? 'each' : '');
  const ocr = group.cells.map((c) => c.confidence);
  const certainty = ocr.length ? ocr.reduce((a, b) => a + b, 0) / ocr.length : 1;
  let confidence = 0.55;
  if (unit) confidence += 0.15;
  if (original > discounted || group.prices.some((p) => p.marked)) confidence += 0.2;
  if (group.prices.length > 3) confidence -= 0.2;
  return {
    product: name.slice(0, 200),
    brand: brand.slice(0, 100),
    originalPrice: original,
    discountedPrice: discounted,
    unit: unit.slice(0, 50),
    confidence: round2(Math.max(0.05, Math.min(0.95, confidence * certainty))),
  };
}

function choosePrices(prices: PriceToken[]): { original: number; discounted: number } {
  const values = prices.map((p) => p.value);
  const multi = prices.find((p) => p.multiBuy);
  const markedNew = prices.find((p) => p.marked === 'new');
  const markedOld = prices.find((p) => p.marked === 'old');
  const discounted = multi?.value ?? markedNew?.value ?? Math.min(...values);
  const others = prices.filter((p) => p !== multi && !p.multiBuy).map((p) => p.value);
  const original = markedOld?.value ?? (others.length ? Math.max(...others) : discounted);
  return { original: Math.max(original, discounted), discounted };
}

function groupLines(items: readonly LayoutItem[]): LayoutItem[][] {
  const sorted = [...items].sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2));
  const lines: LayoutItem[][] = [];
  for (const item of sorted) {
    const centre = item.y + item.height / 2;
    const line = lines.at(-1);
    const ref = line?.[0];
    if (line && ref && Math.abs(ref.y + ref.height / 2 - centre) < Math.max(ref.height, item.height) * 0.5) {
      line.push(item);
    } else {
      lines.push([item]);
    }
  }
  return lines.map((line) => line.sort((a, b) => a.x - b.x));
}

function toCells(line: LayoutItem[]): Cell[] {
  const cells: Cell[] = [];
  let pending: LayoutItem[] = [];
  const flush = () => {
    if (pending.length) cells.push(makeCell(pending));
    pending = [];
  };
  for (const item of line) {
    const last = pending.at(-1);
    const height = Math.max(last?.height ?? 0, item.height);
    if (last && item.x - (last.x + last.width) > height * 1.2) flush();
    pending.push(item);
  }
  flush();
  return cells;
}

function makeCell(items: LayoutItem[]): Cell {
  const text = items
    .map((i) => i.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const confidences = items.map((i) => i.confidence ?? 1);
  return {
    text,
    x: Math.min(...items.map((i) => i.x)),
    y: Math.min(...items.map((i) => i.y)),
    right: Math.max(...items.map((i) => i.x + i.width)),
    bottom: Math.max(...items.map((i) => i.y + i.height)),
    height: Math.max(...items.map((i) => i.height)),
    confidence: confidences.reduce((a, b) => a + b, 0) / confidences.length,
    prices: findPrices(text),
    name: residualName(text),
    unitOnly: isOnlyUnit(text),
  };
}
