import {
  findPrices,
  isArabicScriptCurrency,
  findUnit,
  INFORMATIVE_NOTE,
  packPriceFromRate,
  isOnlyUnit,
  isBadgeHeadline,
  isMemberBadge,
  isPerHundredOf,
  isPriceNote,
  looksLikeName,
  namesNothing,
  isServiceNote,
  residualName,
  isValidityStatement,
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

/** Where an offer was read on its page: PDF points, origin at the top-left, y growing downwards. */
export interface OfferBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ParsedOffer {
  product: string;
  brand: string;
  originalPrice: number;
  discountedPrice: number;
  unit: string;
  confidence: number;
  /** The area of the page the offer was read from, when the reader knows it. */
  box?: OfferBox;
  /** A validity printed for this offer alone (YYYY-MM-DD); the flyer's validity otherwise. */
  validUntil?: string;
  /** Read from a text layer's characters alone (no OCR, no model): its prices are as printed. */
  fromTextLayer?: boolean;
}

interface Cell {
  text: string;
  x: number;
  y: number;
  right: number;
  bottom: number;
  height: number;
  /**
   * The height of its tallest item with a digit (0 when none): an Arabic currency word or a unit
   * misread beside a price is boxed taller than the amount, and the amount's size is the tile's.
   */
  digitHeight: number;
  confidence: number;
  /** Every item of it came from a text layer (none from OCR). */
  printed: boolean;
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
  /**
   * Pack sizes printed under a stacked name ("Biscotti ricchi / 700 g"): the unit when no other is.
   * A unit word alone there ("گرم") is more often what is left of a misread line than a size.
   */
  packSizes?: string[];
}

/**
 * More text items than a flyer page holds (the densest real page read here, 60 offers, has ~500).
 * The parser's work grows faster than the items: a hostile page of 100,000 tiny items would hold a
 * worker for minutes, so a page with more is read from its largest items (prices and names are
 * print's biggest; fine print goes first).
 */
export const MAX_LAYOUT_ITEMS = 5_000;

export function parseLayout(items: readonly LayoutItem[]): ParsedOffer[] {
  const lines = groupLines(
    joinPricePieces(
      withSeparatorsRead(withoutReadingsInPrices(withoutDuplicates(largestItems(items).map(normalised)))),
    ),
  ).map(toCells);
  unnameDisplayWords(lines);
  const usedAsName = new Set<Cell>();
  const groups: OfferGroup[] = [];
  const orphans: Orphan[] = [];

  lines.forEach((cells, lineIndex) => {
    if (!cells.some((c) => c.prices.length > 0)) return;
    let current: OfferGroup | undefined;
    let lastName: Cell | undefined;
    const lineGroups: OfferGroup[] = [];
    const nameCells = new Map<OfferGroup, Cell[]>();
    // A right-to-left line (Arabic, Persian, Hebrew) is read from its right end: name, then prices.
    const rightToLeft = isRightToLeft(cells);
    let previous: Cell | undefined;
    for (const cell of rightToLeft ? [...cells].reverse() : cells) {
      const trailing = !rightToLeft && previous !== undefined && trailsPriceAtItsFoot(cell, previous);
      previous = cell;
      const hasName = looksLikeName(cell.name) && !cell.unitOnly && !isOcrNoise(cell) && !trailing;
      if (hasName) {
        if (!current || current.prices.length > 0 || current.nameParts.length === 0) {
          current = { nameParts: [], cells: [], prices: [], units: [] };
          lineGroups.push(current);
          nameCells.set(current, []);
        }
        current.nameParts.push(cell.name);
        nameCells.get(current)!.push(cell);
        usedAsName.add(cell);
        lastName = cell;
      }
      if (
        !current ||
        (!hasName && lastName && belongsToAnotherTile(cell, lastName, lines, lineIndex, usedAsName))
      ) {
        if (cell.prices.length > 0) {
          orphans.push({ cells: [cell], line: lineIndex });
          // Another tile's price between two names parts them: the next name starts its own offer.
          if (current && current.prices.length === 0) current = undefined;
        }
        continue;
      }
      addCell(current, cell);
    }
    // A name that took no price on its line may still head a tile below it.
    for (const group of lineGroups) {
      if (group.prices.length === 0) for (const c of nameCells.get(group) ?? []) usedAsName.delete(c);
    }
    groups.push(...lineGroups);
  });

  groups.push(...resolveTiles(clusterOrphans(orphans), lines, usedAsName, pricedCells(groups)));
  return groups.flatMap((group) => toOffer(group) ?? []);
}

/** An OCR word this many times the page's middle name-word height is display type, no name. */
const DISPLAY_WORD = 2.5;
/** The OCR certainty from which a name cell's height counts for the page's name size. */
const SURE_NAME = 0.9;

/**
 * A lone word OCR read in display type on a page whose names are small (a product photo's
 * packaging, a logo: "COSTA", "tenta", which the dictionary holds) names no tile.
 */
function unnameDisplayWords(lines: Cell[][]): void {
  const named = lines.flat().filter((c) => !c.printed && c.prices.length === 0 && looksLikeName(c.name));
  // The names read surely set the size: OCR's unsure words are of every size.
  const heights = named
    .filter((c) => c.confidence >= SURE_NAME)
    .map((c) => c.height)
    .sort((a, b) => a - b);
  const middle = heights[heights.length >> 1] ?? 0;
  if (middle === 0) return;
  for (const c of named) {
    if (!/\s/u.test(c.name.trim()) && c.height >= middle * DISPLAY_WORD) c.name = '';
  }
}

/**
 * Small OCR text set close after a big price, at its foot: the price's unit misread ("0,59 € la
 * unidad" read "la idad"), never a name. Apart from the price by a size jump, it named the next
 * tile's price on the line. A neighbouring tile's name stands a gutter away, over its own price.
 */
function trailsPriceAtItsFoot(cell: Cell, price: Cell): boolean {
  if (cell.printed || cell.prices.length > 0 || price.prices.length === 0) return false;
  const gap = cell.x - price.right;
  return (
    gap >= 0 &&
    gap < price.height * 0.5 &&
    cell.height <= price.height * 0.5 &&
    cell.bottom >= price.y + price.height * 0.6
  );
}

/** Below this OCR confidence, a cell with no word a flyer would print is not a name. */
const NOISE_CONFIDENCE = 0.6;
/**
 * Below this, whatever its letters: what tesseract all but failed to read is a photo's texture or a
 * badge's ink ("pFEZRIT", "isaneiCo" at 0.00). 0.35 scored the same on the rasterised and generated
 * flyers.
 */
const NOISE_FLOOR = 0.25;

/**
 * OCR's reading of a picture or of a display price it could not read ("sqm" for "$3⁷⁹"): unsure,
 * and no word of it one a flyer prints. As a name it takes the prices beside it, a neighbouring
 * tile's among them, from the name they stand under.
 */
function isOcrNoise(cell: Cell): boolean {
  return (
    cell.confidence < NOISE_FLOOR ||
    (cell.confidence < NOISE_CONFIDENCE && nameLikelihood(cell.name) === 0) ||
    isPriceRemains(cell)
  );
}

/** How close (in the word's heights) the unreadable words on either side of an OCR word stand. */
const NOISE_NEIGHBOUR_GAP = 2;

/**
 * An OCR word with what tesseract all but failed to read right before and after it on its line
 * ("ExelERMSSS Cais lúh" of a club badge's script, "Exclusividade Cliente Clube"): one word it
 * happened to read of a misread line, no tile's name.
 */
function amidNoise(cell: Cell, line: readonly Cell[]): boolean {
  if (cell.printed) return false;
  const near = (c: Cell) =>
    c !== cell &&
    c.confidence < NOISE_FLOOR &&
    Math.max(c.x - cell.right, cell.x - c.right) < cell.height * NOISE_NEIGHBOUR_GAP;
  return (
    line.some((c) => near(c) && c.right <= cell.x + 1) && line.some((c) => near(c) && c.x >= cell.right - 1)
  );
}

/**
 * An OCR cell holding a price with its Arabic-script currency word, or with Arabic-script words
 * only where that word stands (left of the amount on the page; a price cell's text is in page
 * order): the words beside the amount are the price's unit or currency misread ("درهم علله" of
 * "٣.٧٩ درهم كيلو" cut by the tile's edge, "ذدرهقم"). A name on such a flyer stands on its own
 * line, over the price.
 */
function isPriceRemains(cell: Cell): boolean {
  if (cell.printed || cell.prices.length === 0) return false;
  if (cell.text.split(/\s+/u).some(isArabicScriptCurrency)) return true;
  const left = cell.text.slice(0, cell.prices[0]!.start);
  const right = cell.text.slice(cell.prices.at(-1)!.end);
  return !/\p{L}/u.test(right) && /^[\s\p{Script=Arabic}]+$/u.test(left) && /\p{L}/u.test(left);
}

/**
 * A big price beside a small name that happens to share its line (a neighbouring tile's price
 * level with a name line of this one) is not that name's price: at least 2.5 times taller, and
 * either more than three of its heights away, beside (not under) the last line of a stacked tile
 * name, or set right under a name of its own (dense grids stagger their tiles). On an OCR page,
 * a price no smaller than the name, with a name of its own over it, is another tile's too.
 */
function belongsToAnotherTile(
  price: Cell,
  name: Cell,
  lines: Cell[][],
  lineIndex: number,
  usedAsName: Set<Cell>,
): boolean {
  if (price.prices.length === 0) return false;
  const gap = Math.max(price.x - name.right, name.x - price.right);
  // OCR reads a line across staggered tiles: a price with a free name of its own right over it
  // (within its height) is that name's, not the neighbour's whose line it shares.
  if (
    !price.printed &&
    gap > 0 &&
    price.height >= name.height &&
    hasOwnNameAbove(price, name, lines, lineIndex, usedAsName, { reach: TILE_NAME_REACH, unheaded: true })
  ) {
    return true;
  }
  if (price.height < name.height * 2.5) return false;
  if (gap > price.height * 3) return true;
  if (gap <= 0) return false;
  return (
    hasNameLineAbove(name, lines, lineIndex) || hasOwnNameAbove(price, name, lines, lineIndex, usedAsName)
  );
}

/**
 * A free name right over the price (its bottom within `reach` of the price's heights), not over
 * `name`; `unheaded`: on a line that holds no name over `name` either (a line of text over both,
 * "WEEKLY SPECIALS", heads a list).
 */
function hasOwnNameAbove(
  price: Cell,
  name: Cell,
  lines: Cell[][],
  lineIndex: number,
  usedAsName: Set<Cell>,
  { reach, unheaded }: { reach: number; unheaded: boolean } = { reach: 0.5, unheaded: false },
): boolean {
  for (let i = lineIndex - 1; i >= 0; i -= 1) {
    const line = (lines[i] ?? []).filter((c) => isFreeName(c, usedAsName));
    const own = line.some(
      (c) =>
        overlapsHorizontally(c, price, 0) &&
        !overlapsHorizontally(c, name, 0) &&
        price.y - c.bottom < price.height * reach,
    );
    if (own && !(unheaded && line.some((c) => overlapsHorizontally(c, name, 0)))) return true;
    if (lines[i]?.[0] && price.y - lines[i]![0]!.bottom > price.height) break;
  }
  return false;
}

/** How close over an OCR price (in its heights) its own tile's name stands (0.75 to 2 scored the same). */
const TILE_NAME_REACH = 1;

const isFreeName = (c: Cell, usedAsName: Set<Cell>): boolean =>
  !usedAsName.has(c) && c.prices.length === 0 && !c.unitOnly && looksLikeName(c.name);

function hasNameLineAbove(name: Cell, lines: Cell[][], lineIndex: number): boolean {
  for (let i = lineIndex - 1; i >= 0; i -= 1) {
    for (const c of lines[i] ?? []) {
      if (c.prices.length > 0 || !looksLikeName(c.name) || !overlapsHorizontally(c, name, 0)) continue;
      if (name.y - c.bottom < Math.max(name.height, c.height) * 1.2) return true;
    }
  }
  return false;
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
function resolveTiles(
  orphans: Orphan[],
  lines: Cell[][],
  usedAsName: Set<Cell>,
  placed: PlacedPrice[],
): OfferGroup[] {
  const byAnchor = new Map<Cell, OfferGroup>();
  /** Every name cell of a tile's group: two prices whose stacks share a line share the tile. */
  const byNameCell = new Map<Cell, OfferGroup>();
  const groupOf = (anchor: TileName): OfferGroup => {
    const names = [anchor.product, ...anchor.extra, ...(anchor.brand ? [anchor.brand] : [])];
    let group = byAnchor.get(anchor.product) ?? names.map((c) => byNameCell.get(c)).find(Boolean);
    if (group) return group;
    group = {
      nameParts: [...anchor.extra.map((c) => c.name), anchor.product.name],
      cells: [],
      prices: [],
      units: [],
    };
    for (const c of anchor.extra) usedAsName.add(c);
    // The name's cells count for the offer's box and certainty, not for its prices.
    group.cells.push(...anchor.extra, anchor.product, ...(anchor.brand ? [anchor.brand] : []));
    if (anchor.brand) {
      group.brand = anchor.brand.name;
      usedAsName.add(anchor.brand);
    }
    addUnitsOf(group, anchor.product);
    group.packSizes = unitsUnderName(anchor.product, lines)
      .flatMap((c) => findUnit(c.text) ?? [])
      .filter((unit) => /\d/.test(unit));
    byAnchor.set(anchor.product, group);
    for (const c of names) byNameCell.set(c, group);
    return group;
  };
  for (const { cells: all, line } of orphans) {
    const cells = all.filter((cell) => !underInformativeNote(cell, line, lines));
    // Each price takes the name above it: neighbouring tiles whose prices share a baseline stay
    // apart. A price with no name above it (a struck-through old price beside the new one) joins
    // the nearest price of its cluster that has one.
    const anchors = cells.map((cell) => nameAbove(cell, line, lines, usedAsName));
    cells.forEach((cell, i) => {
      const ofNearest = () => {
        const nearest = nearestAnchor(cells, anchors, i);
        return nearest && groupOf(nearest);
      };
      // A badge straight under a tile's price is that tile's, before the nearest of its line.
      const anchor = anchors[i];
      const group = anchor
        ? groupOf(anchor)
        : (badgeOwner(cell, placed, 0, lines) ?? ofNearest() ?? badgeOwner(cell, placed, BADGE_SLACK, lines));
      if (!group) return;
      addCell(group, cell);
      placed.push({ cell, group });
      for (const unitCell of unitsNear(cell, line, lines)) addUnitsOf(group, unitCell);
    });
  }
  for (const product of byAnchor.keys()) usedAsName.add(product);
  return [...byAnchor.values()];
}

type TileName = NonNullable<ReturnType<typeof nameAbove>>;

interface PlacedPrice {
  cell: Cell;
  group: OfferGroup;
}

const pricedCells = (groups: OfferGroup[]): PlacedPrice[] =>
  groups.flatMap((group) =>
    group.cells.filter((cell) => cell.prices.length > 0).map((cell) => ({ cell, group })),
  );

/** How far under a tile's price (in the badge's heights) a badge with the card price may sit… */
const BADGE_REACH = 6;
/** …and how far to its side, when no other tile of its line claims it. */
const BADGE_SLACK = 2;

/**
 * The tile a price with no name over it belongs to when it is a badge under that tile's one price
 * (a card or app price set on the picture, "no nosso cartão pague 3,99"): the nearest price above
 * it, no smaller, in its column (`slack`: in badge heights). On an OCR page a price whose name
 * OCR missed would otherwise take the tile above: there only a lower price straight under it,
 * nothing between (`ocrCardPriceUnder`).
 */
function badgeOwner(
  badge: Cell,
  placed: readonly PlacedPrice[],
  slack: number,
  lines: readonly Cell[][],
): OfferGroup | undefined {
  if (!badge.printed && slack > 0) return undefined;
  const above = placed
    .filter(
      ({ cell, group }) =>
        group.prices.length === 1 &&
        cell.height >= badge.height &&
        cell.bottom <= badge.y + badge.height / 2 &&
        badge.y - cell.bottom < badge.height * BADGE_REACH &&
        overlapsHorizontally(cell, badge, badge.height * slack) &&
        // Last: it looks through the page's cells.
        (badge.printed || ocrCardPriceUnder(badge, cell, lines)),
    )
    .sort((a, b) => badge.y - a.cell.bottom - (badge.y - b.cell.bottom));
  return above[0]?.group;
}

/**
 * On an OCR page, a price with no name over it straight under a tile's price is that tile's card
 * price only when it is the lower (a member price is a discount), by at most half, set under
 * its width, and no words stand between them (the tile under, whose name OCR misread, has its name there).
 */
function ocrCardPriceUnder(badge: Cell, price: Cell, lines: readonly Cell[][]): boolean {
  const [low, high] = [badge.prices[0]?.value ?? 0, price.prices[0]?.value ?? 0];
  if (!(low < high && low >= high * 0.5)) return false;
  // Under it: the badge's middle within the price's width (a staggered tile's price is beside).
  const middle = (badge.x + badge.right) / 2;
  if (middle < price.x || middle > price.right) return false;
  return !lines.some((line) =>
    line.some(
      (c) =>
        c.y >= price.bottom &&
        c.bottom <= badge.y &&
        overlapsHorizontally(c, badge, 0) &&
        /\p{L}/u.test(c.text),
    ),
  );
}

/** Lines over a price searched for the note it stands under (other columns' lines among them). */
const NOTE_LINES = 6;

/** A price right under a note that only informs ("Nesta embalagem cada unidade sai por"). */
function underInformativeNote(price: Cell, lineIndex: number, lines: Cell[][]): boolean {
  let top = price.y;
  let misread = false;
  for (let i = lineIndex - 1; i >= 0 && i >= lineIndex - NOTE_LINES; i -= 1) {
    const line = lines[i] ?? [];
    const note = line.find(
      (c) =>
        isPriceNote(c.text) && overlapsHorizontally(c, price, price.height) && top - c.bottom < price.height,
    );
    // Another column's line between the note's is stepped over, and one line of small print OCR
    // misread in the note ("por R$" read "orgs R$").
    const over = line.filter((c) => overlapsHorizontally(c, price, price.height));
    if (!note && over.length === 0) continue;
    if (!note && !misread && over.every((c) => c.height < price.height * 0.5)) {
      misread = true;
      continue;
    }
    if (!note) return false;
    if (INFORMATIVE_NOTE.test(note.text)) return true;
    top = note.y;
  }
  return false;
}

function nearestAnchor(cells: Cell[], anchors: (TileName | undefined)[], i: number): TileName | undefined {
  let best: { distance: number; anchor: TileName } | undefined;
  anchors.forEach((anchor, j) => {
    if (!anchor || isAnotherTilesPrice(cells[i]!, cells[j]!)) return;
    const distance = Math.abs(cells[j]!.x - cells[i]!.x);
    if (!best || distance < best.distance) best = { distance, anchor };
  });
  return best?.anchor;
}

/**
 * An OCR price as big as its named neighbour is not that tile's former price (printed smaller) but
 * the price of a tile whose name OCR missed: it must not become the neighbour's price.
 */
function isAnotherTilesPrice(price: Cell, named: Cell): boolean {
  return !price.printed && price.height >= named.height * SAME_SIZE;
}
const SAME_SIZE = 0.7;

function addUnitsOf(group: OfferGroup, cell: Cell): void {
  const unit = findUnit(cell.text);
  if (unit) group.units.push(unit);
}

const centreDistance = (a: Cell, b: Cell) => Math.abs((a.x + a.right) / 2 - (b.x + b.right) / 2);

function overlapsHorizontally(a: Cell, b: Cell, slack: number): boolean {
  return a.x - slack < b.right && b.x - slack < a.right;
}

function nameAbove(
  price: Cell,
  lineIndex: number,
  lines: Cell[][],
  usedAsName: Set<Cell>,
): { product: Cell; brand: Cell | undefined; extra: Cell[] } | undefined {
  // A name straight over the price wins over a nearer line's name that only reaches it with slack
  // (a neighbouring tile's name set a little lower).
  return (
    nameAboveWithin(price, lineIndex, lines, usedAsName, true) ??
    nameAboveWithin(price, lineIndex, lines, usedAsName, false)
  );
}

/** An OCR name read unsurely yields to a surely read one over the same price, however centred. */
const unsureLast = (c: Cell): number => (c.confidence < NOISE_CONFIDENCE ? 1 : 0);

function nameAboveWithin(
  price: Cell,
  lineIndex: number,
  lines: Cell[][],
  usedAsName: Set<Cell>,
  straightOver: boolean,
): { product: Cell; brand: Cell | undefined; extra: Cell[] } | undefined {
  const reach = (price.digitHeight || price.height) * 5;
  // A block of note lines stacked over the price ("Levando 3 unidades / pague 2 / a unidade sai
  // por") is measured through: the reach starts above it.
  let top = price.y;
  for (let i = lineIndex - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (line[0] && top - line[0].bottom > reach) break;
    const note = line.find(
      (c) => isPriceNote(c.text) && overlapsHorizontally(c, price, 0) && top - c.bottom < price.height * 1.5,
    );
    if (note) top = Math.min(top, note.y);
    // The flyer's validity statement heads the page: a name above it is the store's, not this tile's.
    if (line.some((c) => overlapsHorizontally(c, price, 0) && isValidityStatement(c.text))) break;
    // Of the names over the price, the one centred nearest to it (a neighbour's name may reach it).
    const product = line
      .filter(
        (c) =>
          !usedAsName.has(c) &&
          c.prices.length === 0 &&
          !c.unitOnly &&
          looksLikeName(c.name) &&
          !isOcrNoise(c) &&
          !amidNoise(c, line) &&
          (straightOver
            ? overlapsHorizontally(c, price, 0)
            : rightToLeftText(c.text)
              ? rightToLeftNameOver(c, price) && !pricedBetween(lines[lineIndex]!, price, c)
              : overlapsHorizontally(c, price, price.height)),
      )
      .sort(
        (a, b) => unsureLast(a) - unsureLast(b) || centreDistance(a, price) - centreDistance(b, price),
      )[0];
    if (!product) continue;
    return stackedName(product, i, lines, usedAsName);
  }
  return undefined;
}

/**
 * Right-to-left tiles set the name at the right edge and the price at the left, as far apart as
 * the tile is wide: the name reaches to the price's right end or beyond, never ends before it
 * (that name is the tile on the left's).
 */
function rightToLeftNameOver(name: Cell, price: Cell): boolean {
  return name.right >= price.right - price.height && name.x - price.right <= price.height * RTL_TILE_REACH;
}

/**
 * A price as big as `price` standing between it and a right-to-left name on its right: the name
 * is that price's tile's, `price` the tile on the left's (whose name OCR may have missed).
 */
function pricedBetween(line: readonly Cell[], price: Cell, name: Cell): boolean {
  return line.some(
    (c) =>
      c !== price &&
      c.prices.length > 0 &&
      c.x >= price.right &&
      c.x < name.right &&
      isAnotherTilesPrice(c, price),
  );
}

/** How far right of a price (in its heights) a right-to-left tile's name may start. */
const RTL_TILE_REACH = 8;

/**
 * A tile's name is often several short lines stacked above its price ("PORK BUTT / CARNE / PARA /
 * TAMALES"). The lines directly above the nearest one, in the same column, belong to it (read
 * across the lines of other columns set between them, whose baselines differ); the top line is
 * the brand only when it is printed smaller than the rest (a name broken over two lines of
 * one size, "CHICKEN / BREAST", is one name).
 */
/**
 * A brand line is printed this much smaller than the name under it. OCR's boxes hold the ink, so a
 * line without descenders over one with them ("Banana" over "Branca Kg", "Ovos Vermelhos" over
 * "Bdj. Grado C/30") is ~0.8 as tall at one size: there the brand must be clearly smaller.
 */
const BRAND_SIZE = 0.85;
const OCR_BRAND_SIZE = 0.7;
/** A line of a stacked name is at most this many times taller than the line under it. */
const MAX_NAME_LINE_RATIO = 2.5;
/** Lines of other columns a stacked name's lines may be read across. */
const MAX_SKIPPED_LINES = 2;
/** …and is then at most this many times taller than the line under it (a headline is bigger). */
const SKIPPED_NAME_LINE_RATIO = 1.2;

function stackedName(
  nearest: Cell,
  lineIndex: number,
  lines: Cell[][],
  usedAsName: Set<Cell>,
): { product: Cell; brand: Cell | undefined; extra: Cell[] } {
  const stack = [nearest];
  let top = nearest;
  let skipped = 0;
  for (let j = lineIndex - 1; j >= 0 && stack.length < 5; j -= 1) {
    const above = lines[j]!.find(
      (c) =>
        !usedAsName.has(c) &&
        c.prices.length === 0 &&
        !c.unitOnly &&
        looksLikeName(c.name) &&
        top.y - c.bottom < Math.max(top.height, c.height) * 1.2 &&
        // A headline over the tiles ("SÃO JOÃO" at ten times the names' size) is not their name.
        c.height < top.height * (skipped > 0 ? SKIPPED_NAME_LINE_RATIO : MAX_NAME_LINE_RATIO) &&
        !isOcrNoise(c) &&
        !amidNoise(c, lines[j]!) &&
        overlapsHorizontally(c, top, top.height),
    );
    if (!above) {
      // Another column's line set between this tile's lines (its baselines differ) is stepped over.
      if (lines[j]!.some((c) => overlapsHorizontally(c, top, top.height)) || ++skipped > MAX_SKIPPED_LINES)
        break;
      continue;
    }
    stack.unshift(above);
    top = above;
  }
  if (stack.length === 1) return { product: nearest, brand: undefined, extra: [] };
  const [first, ...rest] = stack;
  const restHeight = Math.min(...rest.map((c) => c.height));
  const read = [first!, ...rest].some((c) => c.confidence < 1) ? OCR_BRAND_SIZE : BRAND_SIZE;
  const smaller = first!.height < restHeight * read;
  if (smaller) return { product: nearest, brand: first, extra: rest.slice(0, -1) };
  return { product: nearest, brand: undefined, extra: stack.slice(0, -1) };
}

/** Unit cells beside or under a tile's price, or on the line right over it (below the name). */
const UNIT_LINES_ABOVE = 3;

function unitsNear(price: Cell, lineIndex: number, lines: Cell[][]): Cell[] {
  const out: Cell[] = [];
  for (const i of [lineIndex, lineIndex + 1]) {
    for (const c of lines[i] ?? []) {
      if (c !== price && c.unitOnly && overlapsHorizontally(c, price, price.height * 2)) out.push(c);
    }
  }
  // The line right over the price in its column: page lines are page-wide, so a neighbouring
  // column's line may come between.
  for (const line of lines.slice(Math.max(0, lineIndex - UNIT_LINES_ABOVE), lineIndex)) {
    for (const c of line) {
      if (c.unitOnly && overlapsHorizontally(c, price, 0) && price.y - c.bottom < price.height * 0.5)
        out.push(c);
    }
  }
  return out;
}

/** How many lines under a tile's name its pack size may be printed ("Biscotti ricchi / 700 g"). */
const UNIT_LINES_UNDER_NAME = 2;

/** Unit cells printed right under a tile's name, in its column (its pack size). */
function unitsUnderName(name: Cell, lines: Cell[][]): Cell[] {
  const lineIndex = lines.findIndex((line) => line.includes(name));
  const out: Cell[] = [];
  let bottom = name.bottom;
  for (const line of lines.slice(lineIndex + 1, lineIndex + 1 + UNIT_LINES_UNDER_NAME)) {
    const unit = line.find(
      (c) => c.unitOnly && overlapsHorizontally(c, name, 0) && c.y - bottom < name.height * 0.8,
    );
    if (!unit) continue;
    out.push(unit);
    bottom = unit.bottom;
  }
  return out;
}

/** At most MAX_LAYOUT_ITEMS of a page's items, the tallest, in their order. */
export function largestItems<T extends { height: number }>(items: readonly T[]): readonly T[] {
  if (items.length <= MAX_LAYOUT_ITEMS) return items;
  const kept = new Set([...items].sort((a, b) => b.height - a.height).slice(0, MAX_LAYOUT_ITEMS));
  return items.filter((i) => kept.has(i));
}

function toOffer(group: OfferGroup): ParsedOffer | undefined {
  if (group.prices.length === 0 || group.nameParts.length === 0) return undefined;
  // Only a "was"/regular price was read (the offer's own price was not): no offer, rather than a wrong one.
  if (group.prices.every((p) => p.marked === 'old')) return undefined;
  const rates = ratesOf(group);
  const derived = packPriceOf(group, rates);
  const packed = withoutPackRates(group, rates);
  const converted = withoutConvertedRates(group, packed.prices, rates);
  const rated = withoutReferenceRates(group, converted.prices, rates);
  for (const unit of converted.rates) rated.rates.add(unit);
  const chosen = derived
    ? { original: derived.price, discounted: derived.price }
    : choosePrices(rated.prices);
  const discounted = chosen.discounted;
  let name = group.nameParts.join(' ').replace(/\s+/g, ' ').trim();
  let brand = group.brand?.trim() ?? '';
  if (!brand) {
    const inParens = /^(.*\S)\s*\(([^()]+)\)$/.exec(name);
    if (inParens && looksLikeName(inParens[2]!)) {
      name = inParens[1]!;
      brand = inParens[2]!.trim();
    }
  }
  if (!looksLikeName(name) || namesNothing(`${brand} ${name}`) || isServiceNote(name)) return undefined;
  const multiBuy = group.prices.some((p) => p.multiBuy);
  const units = group.units.filter((u) => !rated.rates.has(u));
  const unit = derived?.unit ?? packed.pack ?? units[0] ?? group.packSizes?.[0] ?? (multiBuy ? 'each' : '');
  // How sure OCR was of the name and the prices; a small unit word read poorly ("le kg") says little.
  const ocr = group.cells.filter((c) => !c.unitOnly).map((c) => c.confidence);
  const certainty = ocr.length ? ocr.reduce((a, b) => a + b, 0) / ocr.length : 1;
  const original = certainty < 1 ? readRegularPrice(chosen.original, discounted) : chosen.original;
  if (certainty < 1) name = withoutStrayMarks(name);
  let confidence = 0.55;
  // A price per kilo printed beside the pack's says "offer" as a unit does.
  if (unit || rated.rates.size > 0) confidence += 0.15;
  // A second price printed says "offer", even one read wrong.
  if (chosen.original > discounted || group.prices.some((p) => p.marked)) confidence += 0.2;
  if (group.prices.length > 3) confidence -= 0.2;
  // OCR noise read as a name ("Potd§oe", "(WEE Al") is kept for audit rather than shown.
  if (certainty < 1) confidence *= nameLikelihood(`${brand} ${name}`);
  return {
    product: name.slice(0, 200),
    brand: brand.slice(0, 100),
    originalPrice: original,
    discountedPrice: discounted,
    unit: unit.slice(0, 50),
    confidence: round2(Math.max(0.05, Math.min(0.95, confidence * ocrWeight(certainty)))),
    box: boxOf(group.cells),
    fromTextLayer: group.cells.every((c) => c.printed),
  };
}

/**
 * Each price of a tile with the unit its cell prints ("€ 3,70 al kg": "per kg"), if any; of a cell
 * of several prices, the unit printed right after each ("$1.99/lb ($4.39/kg)").
 */
type PriceRates = Map<PriceToken, string | undefined>;

function ratesOf(group: OfferGroup): PriceRates {
  const rates: PriceRates = new Map();
  for (const cell of group.cells) {
    if (cell.prices.length === 0) continue;
    const unit = findUnit(cell.text);
    const own = cell.prices.map((token, i) =>
      cell.prices.length > 1 ? findUnit(cell.text.slice(token.end, cell.prices[i + 1]?.start)) : undefined,
    );
    // The cell's unit is not another price's own ("0,79 € (0,16 €/100 g)": 0,79 is no price per 100 g).
    const shared = own.includes(unit) ? undefined : unit;
    cell.prices.forEach((token, i) => rates.set(token, own[i] ?? shared));
  }
  return rates;
}

/** The sizes a tile prints: its units, then the sizes under its name. */
const packsOf = (group: OfferGroup): string[] => [...group.units, ...(group.packSizes ?? [])];

/**
 * A tile whose only price read is per kilo or litre ("3,70 al kg"; the pack's own price printed as
 * a picture) under a pack size ("700 g") prices the pack.
 */
function packPriceOf(group: OfferGroup, rates: PriceRates): { price: number; unit: string } | undefined {
  const [only, ...more] = group.prices;
  if (!only || more.length > 0 || only.multiBuy || only.marked) return undefined;
  const rate = rates.get(only);
  if (!rate) return undefined;
  for (const unit of packsOf(group)) {
    const price = packPriceFromRate(only.value, rate, unit);
    if (price !== undefined) return { price, unit };
  }
  return undefined;
}

/**
 * The tile's prices less a per-kilo or per-litre one that is what its pack's price comes to ("700 g",
 * "2,59 €", "€ 3,70 al kg"): a reference price, not the regular one.
 */
function withoutPackRates(group: OfferGroup, rates: PriceRates): { prices: PriceToken[]; pack?: string } {
  const packs = packsOf(group);
  let explained: string | undefined;
  const kept = group.prices.filter((token) => {
    const rate = rates.get(token);
    if (!rate || token.marked || token.multiBuy) return true;
    const pack = packs.find((size) => {
      const price = packPriceFromRate(token.value, rate, size);
      return group.prices.some(
        (other) =>
          other !== token &&
          (round2(other.value) === price || isPerHundredOf(token.value, rate, size, other.value)),
      );
    });
    explained ??= pack;
    return !pack;
  });
  return kept.length > 0 ? { prices: kept, pack: explained } : { prices: group.prices };
}

/** A reference price per kilo or litre is printed at most this share of the tile's price's size. */
const REFERENCE_SIZE = 0.5;

/**
 * The tile's prices less the per-kilo or per-litre ones printed small beside its one price for its
 * pack ("7,39" and "€ 8,69 al kg" under it, the pack's size unread): a reference price, neither the
 * regular one nor the offer's unit. `rates`: the units of the prices left out.
 */
function withoutReferenceRates(
  group: OfferGroup,
  prices: PriceToken[],
  rates: PriceRates,
): { prices: PriceToken[]; rates: Set<string> } {
  const sizeOf = (token: PriceToken) => printedSize(group, token);
  const perMeasure = (t: PriceToken) => /^per /u.test(rates.get(t) ?? '');
  const plain = prices.filter((t) => !perMeasure(t) && !t.marked && !t.multiBuy);
  if (plain.length !== 1) return { prices, rates: new Set() };
  const size = sizeOf(plain[0]!);
  // A price per 100 g or 100 ml beside the pack's is its reference however it is printed ("0,79 €
  // (0,16 €/100 g)"); alone, it is a deli's price.
  const perHundred = (t: PriceToken) => /^per 100\s*(?:g|ml)$/iu.test(rates.get(t) ?? '');
  const reference = prices.filter(
    (t) => perMeasure(t) && !t.marked && !t.multiBuy && (sizeOf(t) <= size * REFERENCE_SIZE || perHundred(t)),
  );
  return {
    prices: prices.filter((t) => !reference.includes(t)),
    rates: new Set(reference.map((t) => rates.get(t)!)),
  };
}

/** How tall a price is printed: its digits' height, else its cell's. */
function printedSize(group: OfferGroup, token: PriceToken): number {
  const cell = group.cells.find((c) => c.prices.includes(token));
  return cell ? cell.digitHeight || cell.height : 0;
}

/** Kilos in each measure a weighed price is given per: a price per kilo times it is the price per that. */
const KILOS_PER: Record<string, number> = { lb: 0.45359237, kg: 1, '100g': 0.1 };

/** The measure a price is given per ("per lb", "per kg", "per 100 g"), as a key of KILOS_PER. */
function weighedMeasure(rate: string | undefined): string | undefined {
  const measure = /^per (lb|kg|kilo|quilo|chilo|100\s*g)$/iu.exec(rate ?? '')?.[1];
  return measure
    ?.toLowerCase()
    .replace(/\s+/gu, '')
    .replace(/^(?:kilo|quilo|chilo)$/u, 'kg');
}

/**
 * One price in two measures ("$2.99/lb" beside "$6.59/kg", as Canadian flyers print every weighed
 * price; "€ 1,99 all'etto" over "€ 19,90 al kg"): not an offer and its regular price. The one
 * printed smaller goes (the later one when both are one size), and its unit with it. The same price
 * per kilo to the cent, or 1 %.
 */
function withoutConvertedRates(
  group: OfferGroup,
  prices: PriceToken[],
  rates: PriceRates,
): { prices: PriceToken[]; rates: Set<string> } {
  const weighed = prices.flatMap((token) => {
    const measure = token.marked || token.multiBuy ? undefined : weighedMeasure(rates.get(token));
    return measure ? [{ token, measure, perKilo: token.value / KILOS_PER[measure]! }] : [];
  });
  const dropped = new Set<PriceToken>();
  weighed.forEach((a, i) => {
    for (const b of weighed.slice(i + 1)) {
      if (a.measure === b.measure) continue;
      if (Math.abs(a.perKilo - b.perKilo) > Math.max(0.025, Math.max(a.perKilo, b.perKilo) * 0.01)) continue;
      dropped.add(printedSize(group, b.token) > printedSize(group, a.token) ? a.token : b.token);
    }
  });
  return {
    prices: prices.filter((t) => !dropped.has(t)),
    rates: new Set([...dropped].map((t) => rates.get(t)!)),
  };
}

/**
 * OCR's stray marks glued to the ends of Arabic-script words ("زيتون\"", "طازج؟"), and its unpaired
 * brackets; paired ones are print ("Feijão (Camil)").
 */
function withoutStrayMarks(name: string): string {
  return withoutUnpairedBrackets(name)
    .split(' ')
    .map((word) =>
      /\p{Script=Arabic}/u.test(word)
        ? word.replace(/^[\p{Po}\p{S}]+|[\p{Po}\p{S}]+$/gu, '')
        : // Quotes OCR reads from a photo's edge or an ornament beside a Latin word ("„“Eingelegtes").
          word.replace(/^["'„“”‚‘’«»`]+(?=\p{L})|(?<=\p{L})["„“”‚«»`]+$/gu, ''),
    )
    .filter(Boolean)
    .join(' ');
}

/** Brackets OCR read from a photo's or badge's edge beside a word ("União)", "(Caril"): each unpaired one. */
function withoutUnpairedBrackets(name: string): string {
  const unpaired = new Set<number>();
  const open: number[] = [];
  [...name].forEach((ch, i) => {
    if (ch === '(') open.push(i);
    else if (ch === ')' && open.pop() === undefined) unpaired.add(i);
  });
  for (const i of open) unpaired.add(i);
  return [...name].filter((_, i) => !unpaired.has(i)).join('');
}

const PRODUCT_CODE = /^(?=.*\d)[A-Z\d]{2,6}$/u;
const VOWEL = /[aeiouyàáâãäåèéêëìíîïòóôõöùúûüæœ]/iu;
const LATIN_WORD = /^[\p{Script=Latin}][\p{Script=Latin}'’.-]*$/u;
const OTHER_SCRIPT_WORD = /^[\p{L}\p{M}\u200c]+$/u;

/**
 * The share of a name's letters that stand in words a flyer would print: Latin words with a vowel
 * (or short capitals), words of another script made of letters only, numbers with units. Symbols
 * inside words (§ © “ ‘ |) and vowel-less runs are what OCR makes of pictures.
 */
export function nameLikelihood(name: string): number {
  let good = 0;
  let all = 0;
  // "c/ casca", "C/SOBRECOXA", "latte/stracciatella": a slash joins words.
  for (const read of name.split(/[\s/]+/).filter(Boolean)) {
    // A comma or colon after a word is print ("CHEESE,", "BACON:"), not a misread letter.
    const word = read.replace(/(?<=\p{L})[,;:]+$/u, '');
    const letters = (word.match(/\p{L}/gu) ?? []).length;
    if (letters === 0) continue;
    // A model or pot code in capitals and figures ("P06", "X12", read "PO6") is print, not a misread word.
    if (PRODUCT_CODE.test(word)) continue;
    all += letters;
    // Short capitals ("UHT") and abbreviations with their dot ("Bdj.", "Pct.") have no vowel.
    const abbreviation = letters <= 3 && (word === word.toUpperCase() || /^\p{L}+\.$/u.test(word));
    // Two words OCR glued through a misread space ("MacarrãWEspaguete") change case inside; a
    // word misread from its first letters on opens with two capitals then small ones ("CRage", "NEliaffo").
    const glued = /\p{Ll}{3}\p{Lu}{1,2}\p{Ll}{3}|^\p{Lu}{2}\p{Ll}{2}/u.test(word);
    const latin = LATIN_WORD.test(word) && (VOWEL.test(word) || abbreviation) && !glued;
    const measured = /^\d+(?:[.,]\d+)?\p{L}{1,3}$/u.test(word);
    // OCR glues a stray mark to a right-to-left word's end ("طازج؟", "زيتون\""): the word stands.
    const other =
      !/\p{Script=Latin}/u.test(word) &&
      OTHER_SCRIPT_WORD.test(word.replace(/^[\p{P}\p{S}]|[\p{P}\p{S}]$/gu, ''));
    if (latin || measured || other) good += letters;
  }
  return all === 0 ? 0 : good / all;
}

/**
 * How much OCR's own doubt lowers an offer's confidence. tesseract's confidence is pessimistic
 * (display faces, raised cents): its square root. Right-to-left pages once had their doubt count in
 * full, while their Arabic-Indic prices went unread; read now (the digit reader), the same weight
 * lists 14 more right offers and 10 more misnamed ones on generated seeds 1–4.
 */
function ocrWeight(certainty: number): number {
  return Math.sqrt(certainty);
}

/** The union of the cells an offer was read from (PDF points, top-left origin). */
function boxOf(cells: Cell[]): OfferBox {
  const x = Math.min(...cells.map((c) => c.x));
  const y = Math.min(...cells.map((c) => c.y));
  return {
    x,
    y,
    width: Math.max(...cells.map((c) => c.right)) - x,
    height: Math.max(...cells.map((c) => c.bottom)) - y,
  };
}

/** No labelled offer, real or generated, is cheaper than 40 % of its regular price. */
const MAX_REGULAR_RATIO = 2.5;

/**
 * OCR's regular price far above the offer's is a misreading more often than a deal (generated seeds
 * 1–4: of 30 such offers, 27 had their price right and their regular one wrong, "2,25" read without
 * its comma as 225, a neighbouring tile's price): one read without its comma gets it back when that
 * makes it plausible; any other is dropped, the offer kept.
 */
function readRegularPrice(original: number, discounted: number): number {
  if (original <= discounted * MAX_REGULAR_RATIO) return original;
  const withComma = original / 100;
  if (Number.isInteger(original) && withComma > discounted && withComma <= discounted * MAX_REGULAR_RATIO)
    return withComma;
  return discounted;
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
    if (
      line &&
      ref &&
      (Math.abs(ref.y + ref.height / 2 - centre) < sameLineTolerance(ref, item) ||
        onBaseline(ref, item) ||
        besideLineWord(line, ref, item))
    ) {
      line.push(item);
    } else {
      lines.push([item]);
    }
  }
  return lines.map((line) => line.sort((a, b) => a.x - b.x));
}

const isPrice = (item: LayoutItem) => findPrices(item.text).length > 0;

/**
 * A word level with a word of the line though its centre is off the line's first item: a word
 * boxed lower by its descenders ("por" of "Leve 4 por R$ 18", centred under the big price the
 * line was started by). Within a word's own tolerance, and inside the first item's height by more
 * than half, so that lines do not drift into the next.
 */
function besideLineWord(line: readonly LayoutItem[], ref: LayoutItem, item: LayoutItem): boolean {
  // OCR's noise (unsure marks off a picture) is no word: let in, it lowered the line's price.
  if ((item.confidence ?? 1) < NOISE_CONFIDENCE || !/\p{L}{2}/u.test(item.text)) return false;
  const overlap = Math.min(ref.y + ref.height, item.y + item.height) - Math.max(ref.y, item.y);
  if (overlap <= item.height * 0.5) return false;
  const centre = item.y + item.height / 2;
  return line.some(
    (other) =>
      other !== ref && Math.abs(other.y + other.height / 2 - centre) < sameLineTolerance(other, item),
  );
}

/**
 * A vertical rule OCR read as a bar: the frame between two tiles, whose names it would otherwise
 * join into one ("Aceite de oliva virgen extra | | Lechuga iceberg").
 */
const isFrameRule = (item: LayoutItem) => item.confidence !== undefined && /^[|¦│]+$/u.test(item.text.trim());

function toCells(line: LayoutItem[]): Cell[] {
  const cells: Cell[] = [];
  let pending: LayoutItem[] = [];
  const flush = () => {
    if (pending.length) cells.push(makeCell(pending));
    pending = [];
  };
  for (const item of line) {
    if (isFrameRule(item)) {
      flush();
      continue;
    }
    const last = pending.at(-1);
    const height = Math.max(last?.height ?? 0, item.height);
    const gap = last ? item.x - (last.x + last.width) : 0;
    // Two whole prices side by side are two cells unless they touch: neighbouring tiles' prices
    // on one baseline must each find their own name.
    const twoPrices = last !== undefined && gap > height * 0.3 && isPrice(last) && isPrice(item);
    // A big price and small text beside it are different elements (a neighbouring tile's name line).
    // So is a small price OCR boxed inside a big one's box ("€ 8,69 al kg" under the raised cents
    // of "7,39"): read as one, "7,398,69", neither was a price.
    const sizeJump =
      last !== undefined &&
      height >= 2.5 * Math.min(last.height, item.height) &&
      (gap > 0 ? isPrice(last) || isPrice(item) : isPrice(last) && isPrice(item));
    // A right-to-left price ends in its currency word ("١٥ درهم"), which stands left of the amount:
    // that word after digits begins the next price, a neighbouring tile's.
    const nextRightToLeftPrice =
      last !== undefined && isArabicScriptCurrency(item.text) && pending.some((i) => /\d/.test(i.text));
    // A currency sign written before its amount ("R$ 20,49", "$5.99") after an amount begins the
    // next price: a multi-buy set across its whole tile ("Leve 4 por R$ 18") nearly meets the
    // neighbouring tile's price.
    const nextPrefixedPrice =
      last !== undefined &&
      gap > height * 0.3 &&
      PREFIXED_CURRENCY.test(item.text) &&
      findPrices(cellText(pending.slice(-PRICE_ITEMS))).length > 0;
    if (last && (gap > height * 0.8 || twoPrices || sizeJump || nextRightToLeftPrice || nextPrefixedPrice))
      flush();
    pending.push(item);
  }
  flush();
  return cells;
}

/**
 * The items a price is looked for among at the end of a cell ("Leve 4 por R$ 18,00"): a hostile
 * line of thousands of "$" in one cell would otherwise be read again whole at each.
 */
const PRICE_ITEMS = 6;
/** A currency printed before its amount: the real, dollars, pounds. */
const PREFIXED_CURRENCY = /^(?:R|US|C|CA|A)?\$|^£/u;

/**
 * Flyers often print a text twice at the same place (an outline or shadow under the fill): the
 * copy is dropped, or every price would be read twice.
 */
function withoutDuplicates(items: readonly LayoutItem[]): LayoutItem[] {
  const kept: LayoutItem[] = [];
  const seen = new Map<string, LayoutItem[]>();
  for (const item of items) {
    const near = seen.get(item.text) ?? [];
    const tolerance = Math.max(2, item.height * 0.15);
    if (near.some((o) => Math.abs(o.x - item.x) <= tolerance && Math.abs(o.y - item.y) <= tolerance))
      continue;
    near.push(item);
    seen.set(item.text, near);
    kept.push(item);
  }
  return kept;
}

/**
 * A decimal comma OCR split a display price at and read as a letter ("7" "J" "49": the comma's tail
 * below the line taken for a "J"): a mark no wider than a third of the digits' height and at most
 * half as tall, standing in the gap between a whole number and two digits of its size, at their
 * foot. The three are one price ("7,49", not "49 €" alone), with the whole number's digits OCR
 * split apart before it ("1" "1" of "11,79": a condensed face's "1" stands apart from its
 * neighbours).
 */
function withSeparatorsRead(items: LayoutItem[]): LayoutItem[] {
  const digits = items.filter((i) => i.confidence !== undefined && /^\d{1,4}$/.test(i.text.trim()));
  if (digits.length < 2) return items;
  const joined = new Set<LayoutItem>();
  const prices: LayoutItem[] = [];
  for (const mark of items) {
    if (mark.confidence === undefined || !/^[^\d\s]$/u.test(mark.text.trim())) continue;
    const pieces = piecesAround(mark, digits);
    if (!pieces || pieces.some((p) => joined.has(p))) continue;
    for (const p of [...pieces, mark]) joined.add(p);
    const cents = pieces.at(-1)!;
    const whole = pieces.slice(0, -1);
    const x = whole[0]!.x;
    prices.push({
      text: `${whole.map((p) => p.text.trim()).join('')},${cents.text.trim()}`,
      x,
      y: Math.min(...pieces.map((p) => p.y)),
      width: cents.x + cents.width - x,
      height: Math.max(...pieces.map((p) => p.height)),
      confidence: Math.min(...pieces.map((p) => p.confidence ?? 1)),
    });
  }
  return joined.size === 0 ? items : [...items.filter((i) => !joined.has(i)), ...prices];
}

/** How far (in the digits' heights) a split price's pieces stand from the comma between them. */
const PIECE_GAP = 0.35;

/** The whole number's pieces, left to right, then the cents, that `mark` stands between; or none. */
function piecesAround(mark: LayoutItem, digits: readonly LayoutItem[]): LayoutItem[] | undefined {
  const centre = mark.y + mark.height / 2;
  const whole = digits.find(
    (d) =>
      mark.width <= d.height / 3 &&
      mark.height <= d.height / 2 &&
      centre > d.y + d.height * 0.75 &&
      centre < d.y + d.height * 1.25 &&
      Math.abs(mark.x - (d.x + d.width)) < d.height * PIECE_GAP,
  );
  if (!whole) return undefined;
  const sameSize = (d: LayoutItem) =>
    Math.abs(d.height - whole.height) < whole.height * 0.1 && Math.abs(d.y - whole.y) < whole.height * 0.25;
  const cents = digits.find(
    (d) =>
      /^\d{2}$/.test(d.text.trim()) &&
      sameSize(d) &&
      d.x - (mark.x + mark.width) >= -whole.height * 0.1 &&
      d.x - (mark.x + mark.width) < whole.height * PIECE_GAP,
  );
  if (!cents) return undefined;
  const pieces = [whole];
  for (let first = whole; pieces.length < 4;) {
    const before = digits.find(
      (d) =>
        d !== first &&
        sameSize(d) &&
        first.x - (d.x + d.width) >= 0 &&
        first.x - (d.x + d.width) < whole.height * 0.4,
    );
    if (!before) break;
    pieces.unshift(before);
    first = before;
  }
  return pieces.map((p) => p.text.trim()).join('').length <= 4 ? [...pieces, cents] : undefined;
}

/**
 * OCR words lying within an OCR price's box: the price's ink read a second time by another reader
 * (the Arabic-script reader's "حت" over the digit reader's "29.49"), or part of it read alone (the
 * page reading's "17" under the price recogniser's "17,90"). Beside the amount letters would stand
 * as the tile's name, and the price would be theirs; the digits would be joined to it ("1717,90").
 */
function withoutReadingsInPrices(items: LayoutItem[]): LayoutItem[] {
  const prices = items.filter((i) => i.confidence !== undefined && /\d[.,]\d{2}/u.test(i.text));
  if (prices.length === 0) return items;
  return items.filter(
    (word) =>
      word.confidence === undefined ||
      !prices.some(
        (price) =>
          price !== word &&
          shareWithin(word, price) >= INSIDE_PRICE &&
          (!/\d/u.test(word.text) || partOf(word, price)),
      ),
  );
}

/** `word` is figures only, fewer than `price`'s and found among them ("17" of "17,90"). */
function partOf(word: LayoutItem, price: LayoutItem): boolean {
  const figures = word.text.trim();
  const all = price.text.replace(/\s/g, '');
  return /^\d+$/u.test(figures) && figures.length < all.length && all.includes(figures);
}

/** The share of `inner`'s box that lies within `outer`'s. */
function shareWithin(inner: LayoutItem, outer: LayoutItem): number {
  const width = Math.min(inner.x + inner.width, outer.x + outer.width) - Math.max(inner.x, outer.x);
  const height = Math.min(inner.y + inner.height, outer.y + outer.height) - Math.max(inner.y, outer.y);
  return width <= 0 || height <= 0 ? 0 : (width * height) / (inner.width * inner.height || 1);
}
const INSIDE_PRICE = 0.7;

/** The box around two items: where pieces read apart become one. */
export function boxAround(a: LayoutItem, b: LayoutItem): Pick<LayoutItem, 'x' | 'y' | 'width' | 'height'> {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

/** A whole amount, its currency sign before it or not ("$1" of "3 for $10" read "$1" "0"). */
const WHOLE_PIECE = /^(?:R\$|[$€£])?\d{1,4}[.,]?$/;
const CENTS_PIECE = /^[.,]?\d{1,2}$|^[.,]$/;

/**
 * A price set in pieces ("5" "," "99", the cents smaller and raised) is one item before lines are
 * formed: the pieces' centres differ by more than a line's tolerance allows, and a piece left on
 * another line is a lost price. Pieces touch (a gap under a fifth of the height) and their tops or
 * bottoms align.
 */
function joinPricePieces(items: readonly LayoutItem[]): LayoutItem[] {
  const out = [...items].sort((a, b) => a.x - b.x);
  for (let i = 0; i < out.length; i += 1) {
    for (;;) {
      const read = out[i]!;
      const centSign = centSignOfRaisedCents(read);
      const left = centSign ? { ...read, text: read.text.trim().slice(0, -1) } : read;
      if (!WHOLE_PIECE.test(left.text.trim()) && !/^\d{1,4}[.,]\d{1,2}$/.test(left.text.trim())) break;
      const j = out.findIndex(
        (right, k) => k !== i && continuesPrice(left, right) && (!centSign || raisedCents(left, right)),
      );
      if (j === -1) break;
      const right = out[j]!;
      out[i] = {
        ...left,
        text: left.text.trim() + (raisedCents(left, right) ? ',' : '') + right.text.trim(),
        ...boxAround(left, right),
      };
      out.splice(j, 1);
      if (j < i) i -= 1;
    }
  }
  return out;
}

/**
 * A whole number OCR read with a cent sign after it ("1¢" of "$1⁹⁵": the raised cents' edge taken
 * for the sign): a dollar amount, if raised cents follow it (see joinPricePieces), not 0.01.
 */
function centSignOfRaisedCents(item: LayoutItem): boolean {
  return item.confidence !== undefined && /^\d{1,4}¢$/u.test(item.text.trim());
}

/** Two digits set smaller and level with the top of a whole number with no separator: its cents. */
function raisedCents(left: LayoutItem, right: LayoutItem): boolean {
  return (
    /^(?:R\$|[$€£])?\d{1,4}$/.test(left.text.trim()) &&
    /^\d{2}$/.test(right.text.trim()) &&
    right.height <= left.height * 0.8 &&
    Math.abs(right.y - left.y) < left.height * 0.25
  );
}

/**
 * How far apart (in heights) a price's pieces may stand. Display prices set figures of one width
 * (tabular): a "1" inks a narrow stroke in a full digit's room, so the gap beside it is wider
 * ("1" "1" of "11,79", "$1" "0" of "$10", which OCR splits there).
 */
function gapBeside(left: LayoutItem, right: LayoutItem): number {
  return /1[.,]?$/.test(left.text.trim()) || /^1/.test(right.text.trim()) ? 0.35 : 0.2;
}

function continuesPrice(left: LayoutItem, right: LayoutItem): boolean {
  const text = right.text.trim();
  if (!CENTS_PIECE.test(text) || (/[.,]\d/.test(left.text) && !/^\d/.test(text))) return false;
  if (/[.,]\d{1,2}$/.test(left.text.trim())) return false; // already has its cents
  const height = Math.max(left.height, right.height);
  const gap = right.x - (left.x + left.width);
  // Glyph boxes overlap (a digit's box is wider than its advance): the piece starts past its middle.
  if (right.x <= left.x + left.width * 0.5 || gap > height * gapBeside(left, right)) return false;
  if (right.height > left.height * 1.1 || right.height < left.height * 0.4) return false;
  const topsAlign = Math.abs(right.y - left.y) < height * 0.25;
  const bottomsAlign = Math.abs(right.y + right.height - (left.y + left.height)) < height * 0.25;
  return topsAlign || bottomsAlign;
}

/**
 * A cell's text: items that touch (a gap under a tenth of the line height, e.g. a price set in
 * pieces "1" "," "69" with smaller cents) are one word; others are separated by a space.
 */
function cellText(items: LayoutItem[]): string {
  let text = '';
  // Lost ligatures come out of some text layers as control characters: dropped.
  items.forEach((item, i) => {
    const previous = items[i - 1];
    const touching =
      previous !== undefined &&
      item.x - (previous.x + previous.width) < Math.max(previous.height, item.height) * 0.1 &&
      /[\d,.]$/.test(previous.text) &&
      /^[\d,.]/.test(item.text);
    text += (previous && !touching ? ' ' : '') + item.text;
  });
  return text
    .replace(/\p{Cc}/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The text a cell's name is read from: without the words OCR all but failed to read among read
 * ones ("EPs feno NgYFho", "NgYFho" at 0.00), which named the offer.
 */
function nameText(items: LayoutItem[], text: string): string {
  const read = items.filter((i) => (i.confidence ?? 1) >= NOISE_FLOOR || /\d/u.test(i.text));
  if (read.length === items.length || read.length === 0) return text;
  return inReadingOrder(read);
}

/** The items' text as read: right-to-left words from the right. */
const inReadingOrder = (items: LayoutItem[]): string =>
  cellText(rightToLeftWords(items) ? [...items].reverse() : items);

function makeCell(items: LayoutItem[]): Cell {
  const text = inReadingOrder(items);
  const confidences = items.map((i) => i.confidence ?? 1);
  const printed = items.every((i) => i.confidence === undefined);
  const prices = findPrices(text, !printed);
  return {
    text,
    x: Math.min(...items.map((i) => i.x)),
    y: Math.min(...items.map((i) => i.y)),
    right: Math.max(...items.map((i) => i.x + i.width)),
    bottom: Math.max(...items.map((i) => i.y + i.height)),
    height: Math.max(...items.map((i) => i.height)),
    digitHeight: Math.max(0, ...items.filter((i) => /\d/u.test(i.text)).map((i) => i.height)),
    confidence: confidences.reduce((a, b) => a + b, 0) / confidences.length,
    printed,
    prices,
    // A member badge's or a headline's words are no name, though a frame word taken from them
    // leaves one ("Member price", "Preis-Hit"). (Other notes are judged by the name left: "Regular
    // Coffee" is a coffee.)
    name:
      trailsItsPrice(items, text, prices) ||
      unsureShortWordOnly(items) ||
      isMemberBadge(text) ||
      isBadgeHeadline(text)
        ? ''
        : residualName(nameText(items, text)),
    unitOnly: isOnlyUnit(text),
  };
}

/**
 * An OCR cell that reads a price then a single word ("1,49 € unidas", OCR's "la unidad"): the word
 * belongs to the price (a unit or a mark read poorly), and the tile's name is on its own line.
 */
function trailsItsPrice(items: LayoutItem[], text: string, prices: PriceToken[]): boolean {
  if (prices.length === 0 || !items.some((i) => i.confidence !== undefined)) return false;
  if (rightToLeftText(text) || residualName(text.slice(0, prices[0]!.start)) !== '') return false;
  return residualName(text).split(' ').length === 1;
}

/** As many letters as the shortest Arabic-script product names have ("نان", "شیر", "أرز"). */
const SHORT_NAME_LETTERS = 3;

/**
 * An OCR cell whose only word is a short one OCR was unsure of, no vocabulary having vouched for
 * it (the spelling step raises a food's certainty): a price's unit or currency misread beside it
 * ("١٥,٩٩ € کیلو" read "15.99 6 تپد"), a badge over a photo ("٤٠٪-" read "96 داع"), a card
 * badge's small print ("not" of "NO NOSSO CARTÃO"). As a name it took the prices of the tiles
 * whose own names stand over them.
 */
function unsureShortWordOnly(items: LayoutItem[]): boolean {
  const worded = items.filter((i) => /\p{L}/u.test(i.text));
  const letters = worded.reduce((n, i) => n + (i.text.match(/\p{L}/gu) ?? []).length, 0);
  return (
    worded.length === 1 && letters <= SHORT_NAME_LETTERS && (worded[0]!.confidence ?? 1) < NOISE_CONFIDENCE
  );
}

/**
 * Two words on one baseline, one of them boxed taller upwards (OCR took the edge of the photo over
 * a name into "de" and "mesa" of "Naranjas de mesa"): their bottoms within a quarter of the
 * smaller's height, the smaller inside the other's height by more than half. By their centres they
 * were two lines, and the name came out as "de mesa Naranjas". A price may be the smaller one, beside
 * a word boxed taller on a badge over a photo ("SIE SPAREN 4,00 €", "SPAREN" boxed to the photo's
 * edge): apart, "SIE" named the saving as a price. A price taller than the word is its own line: a
 * big price's foot is level with the small names of the tiles beside it.
 */
function onBaseline(a: LayoutItem, b: LayoutItem): boolean {
  const smaller = Math.min(a.height, b.height);
  const overlap = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (Math.abs(a.y + a.height - (b.y + b.height)) > smaller * 0.25 || overlap <= smaller * 0.5) return false;
  // The geometry first: the price search runs only for the few pairs it lets through.
  const priced = [isPrice(a), isPrice(b)];
  if (priced[0] && priced[1]) return false;
  const [word, other] = priced[0] ? [b, a] : [a, b];
  if (!/\p{L}/u.test(word.text)) return false;
  return priced[0] || priced[1] ? other.height < word.height : /\p{L}/u.test(other.text);
}

/**
 * How far apart two items' centres may be on one line. Text of one size shares a line within half
 * its height; a small caption beside a big price only when close to its centre, or the name lines of
 * neighbouring tiles would join a price's line.
 */
function sameLineTolerance(a: LayoutItem, b: LayoutItem): number {
  return Math.max(Math.min(a.height, b.height) * 0.6, Math.max(a.height, b.height) * 0.3);
}

const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}]/gu;

/**
 * Words of a right-to-left name read apart (OCR gives one item a word, left to right on the page)
 * are joined from the right. Cells with digits keep their order: numbers run left to right.
 */
function rightToLeftWords(items: LayoutItem[]): boolean {
  if (items.length < 2) return false;
  const text = items.map((i) => i.text).join(' ');
  return !/\d/.test(text) && rightToLeftText(text);
}

function rightToLeftText(text: string): boolean {
  const rtl = (text.match(RTL_LETTER) ?? []).length;
  return rtl > 0 && rtl >= (text.match(/\p{L}/gu) ?? []).length / 2;
}

function isRightToLeft(cells: Cell[]): boolean {
  const text = cells.map((c) => c.text).join(' ');
  const rtl = (text.match(RTL_LETTER) ?? []).length;
  return rtl > 0 && rtl >= (text.match(/\p{L}/gu) ?? []).length / 2;
}

/**
 * Text as the parser compares it: presentation forms folded (NFKC: Arabic letters printed in
 * their contextual shapes, full-width digits), Arabic-Indic and Persian digits as ASCII digits
 * and the Arabic decimal separator as a comma. An ordinal sign after a digit ("4º", raised cents
 * misread) becomes a degree sign, which NFKC leaves as it is, rather than an "o".
 */
function normalised(item: LayoutItem): LayoutItem {
  const text = (item.confidence === undefined ? item.text : withPoundsRead(item.text))
    .replace(/(\d)º/gu, '$1°')
    .normalize('NFKC')
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/\u066B/g, ',')
    .replace(/\u066C/g, '.');
  return text === item.text ? item : { ...item, text };
}

/**
 * OCR reads "lb" as "1b" or "Ib" ("10 lb bag" → "101b bag", "/lb" → "/1b"): after a number or a
 * slash no such word is anything else. Read, the pack size is a unit again, not a name over the price.
 */
function withPoundsRead(text: string): string {
  return text.replace(/(\d|\/)\s?[1I]b(?![\p{L}\d])/gu, '$1lb');
}
