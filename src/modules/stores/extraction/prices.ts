/**
 * Price, unit and keyword recognition in flyer text. Formats understood: "20,99 €", "€ 2.49",
 * "24,-", "1.99$", "$5", "was 3.49 now 2.99", "2 for $5" (a multi-buy becomes the per-unit price),
 * units "per kg", "/lb", "je 100 g", "1 l", "each", and pack sizes such as "1 Sack (10Kg)".
 */
import { inPersianForms } from '../../../providers/ocr/arabic-letters.ts';

export interface PriceToken {
  value: number;
  /** The character range of the token in the text it was found in. */
  start: number;
  end: number;
  /** "was/statt/UVP" before it: the regular price. */
  marked: 'old' | 'new' | undefined;
  /** From a multi-buy "2 for $5": the per-unit value, and the quantity. */
  multiBuy?: number;
}

/** Currency signs: euro, dollar, pound and the shekel (Hebrew flyers, right to left). */
const CURRENCY = '[€$£₪]';
/** Currency words of Arabic-script flyers, after the amount ("١٥ درهم"). */
export const ARABIC_SCRIPT_CURRENCY_WORDS = [
  'درهم',
  'دراهم',
  'ريال',
  'ریال',
  'دينار',
  'دینار',
  'جنيه',
  'تومان',
  'ليرة',
  'يورو',
  'یورو',
] as const;
const ARABIC_SCRIPT_CURRENCY = `(?:${ARABIC_SCRIPT_CURRENCY_WORDS.join('|')})(?![\u0600-\u06ff])`;

/** A word that is an Arabic-script currency ("درهم"), which follows its amount: on the page, left of it. */
export function isArabicScriptCurrency(word: string): boolean {
  return ARABIC_SCRIPT_CURRENCY_WORD.test(word.trim());
}
const ARABIC_SCRIPT_CURRENCY_WORD = new RegExp(`^${ARABIC_SCRIPT_CURRENCY}$`);
/**
 * A whole amount with a mark glued after it ("R$ 4º", "$3”") is a big price whose raised cents OCR
 * read as a degree sign or a quote: its cents are unknown, so it is not 4.00. Nor is "$3:89" (a
 * struck-through "$3.89" whose point OCR read as a colon) 3.00, nor "$6-86" (a struck-through
 * "$0.80", its strike read as a dash) 6.00: see PRICE_RE's end.
 */
const RAISED_CENTS_MISREAD = String.raw`(?![°º”"'’])`;
/** "-.99", "–.79": cents alone after a dash standing for no whole part (German and Swiss flyers). */
const DASHED_CENTS = String.raw`[-–—][.,]\d{2}`;
/**
 * Thousands grouped, cents after the other mark: "1.299,00", "1,299.99" (a machine's price). Whole
 * pesos grouped by points after their sign ("$1.290", "$ 12.990": Chile, Colombia, Argentina print
 * no cents); without a sign a point before three digits is no thousands' ("1.290 kg").
 */
const GROUPED = String.raw`\d{1,3}(?:\.\d{3})+,\d{2}|\d{1,3}(?:,\d{3})+\.\d{2}`;
const GROUPED_WHOLE = String.raw`\d{1,3}(?:\.\d{3})+(?![.,]\d)`;
const AMOUNT = String.raw`(?:${GROUPED}|\d{1,4}(?:[.,]\d{2}|[.,]-{1,2}|[.,]–|${RAISED_CENTS_MISREAD})|${DASHED_CENTS})`;
const PRICE_RE = new RegExp(
  String.raw`(?<![\d.,/])(?:(${CURRENCY})\s*(${GROUPED_WHOLE}|${AMOUNT})|(${AMOUNT})\s*(${CURRENCY}|${ARABIC_SCRIPT_CURRENCY})|(${GROUPED}|\d{1,4}[.,]\d{2}|\d{1,4}[.,]-{1,2}|\d{1,4}[.,]–|(?<![\p{L}\d][.-]?)${DASHED_CENTS}))(?![\d%]|[.,:]\d|-\d)`,
  'gu',
);
/** Amounts at most this: a bigger one is a misreading (digits of a phone number, a code), not a price. */
const MAX_AMOUNT = 10_000;
/** …unless its thousands are grouped as printed, up to what a promotion's price may be (the API's money). */
const MAX_GROUPED_AMOUNT = 100_000;
const GROUPED_RE = new RegExp(String.raw`^(?:${GROUPED}|${GROUPED_WHOLE})$`, 'u');
/** Arabic and Persian "٢ حبة ١٥ درهم", "۲ عدد ۲۰ €": a count of pieces, then what they cost together. */
const PIECES = '(?:حبة|حبات|قطعة|قطع|عبوة|عبوات|عدد|بسته)';
const PIECES_FOR = String.raw`${PIECES}\s*(?:ب|بـ|به)?`;
/**
 * The same read left to right as printed ("درهم ١٥ حبة ٢": OCR's words of a right-to-left line in
 * their places on the page): currency, total, pieces, count.
 */
const PIECES_FOR_AS_PRINTED_RE = new RegExp(
  String.raw`(${CURRENCY}|${ARABIC_SCRIPT_CURRENCY})\s*(\d{1,4}(?:[.,]\d{1,2})?)\s*${PIECES}\s*(\d{1,2})(?![\d.,])`,
  'g',
);
/**
 * An OCR line that is only a count of pieces and their total, as printed right to left ("18 عدد 3":
 * 3 pieces, 18): a multi-buy whose currency sign OCR lost (display type; "€" read as nothing).
 * A whole total of three digits or more is left unread: the sign read as digits and glued to the
 * total ("€ ۶" as "466") made it 233.00 for 3.00. The sign read as a word of its own before the
 * total is kept out of the way, "€" or what OCR makes of it in display type, "©" ("© 58 عدد 2").
 */
const PIECES_LINE_AS_PRINTED_RE = new RegExp(
  String.raw`^\s*(?:(?:${CURRENCY}|©)\s+)?(\d{1,2}(?:[.,]\d{2})?|\d{3,4}[.,]\d{2})\s*${PIECES}\s*([2-9]|1[0-2])\s*$`,
  'u',
);
/** German "für", and OCR's readings of its ü in a display face: "fiir", "fur", "fir". */
const GERMAN_FOR = String.raw`f(?:ü|ii|u|i)r`;
/**
 * "Leve por R$ 63": a multi-buy whose count OCR lost. The whole amount is what several cost
 * together, and how many is not known: it is no price. ("Leve por R$ 4,99", take it for, is one.)
 */
const COUNT_LOST_BEFORE = /(?<![\p{L}\d])(?:leve|lleve|lleva|llévate)\s+(?:por|x)\s*R?\s*$/iu;
/** What a multi-buy's count may name ("2 Stück für 3 €", "3 unidades por R$ 10"): pieces, not a weight. */
const PIECE_WORD = String.raw`(?:stück|stk\.?|st\.|pcs?\.?|pieces?|pièces?|pezzi|unidades|unid\.?|uds?\.?)`;
const COUNTED_PIECES = String.raw`(?:${PIECE_WORD}\s*)?`;
const COUNTED_RE = new RegExp(String.raw`^\d+\s*${PIECE_WORD}`, 'iu');
/** Words before a count of pieces that a pack holds ("com 3 unidades", "pack of 4 pcs"). */
const PACK_HOLDS_BEFORE = /(?<![\p{L}])(?:com|con|c\/|with|mit|de|of|pack|pacote|caixa|lot de)\s*$/iu;
/**
 * A count stands alone: the cents of "De R$ 8,79 por R$ 6,99" are no count of 79. Its times sign
 * as printed ("×") or as OCR reads a display face's "x" twice ("3 Xx 12 €"); the real's sign as
 * OCR reads it in display type, "RS".
 */
const MULTI_BUY_RE = new RegExp(
  String.raw`(?<!\d[.,])\b(\d{1,2})\s*${COUNTED_PIECES}(?:for|${GERMAN_FOR}(?: nur)?|[x×]x?|pour|por|per|\/|ב-?|${PIECES_FOR})\s*(R\$|RS|${CURRENCY})?\s*(\d{1,4}(?:[.,]\d{1,2}|[.,][-–]{1,2})?)\s*(${CURRENCY}|${ARABIC_SCRIPT_CURRENCY})?`,
  'gi',
);
/**
 * A cent sign, or a penny's "p" glued to its amount ("45p": British flyers); not a word's first
 * letter ("12pk", "6pcs").
 */
const PENNY = String.raw`p(?![\p{L}\d])`;
const CENT_MARK = String.raw`(?:\s*¢|${PENNY})`;
/** "2/99¢", "3 for 89¢", "2 for 90p": a multi-buy whose total is in cents (US and Canadian flyers). Not "4x125¢", OCR's "4x125g". */
const CENTS_MULTI_BUY_RE = new RegExp(
  String.raw`(?<![\d.,])\b(\d{1,2})\s*(?:\/|for)\s*(\d{1,2})${CENT_MARK}`,
  'giu',
);
/**
 * "99¢", "49 ¢", "45p": cents alone (US, Canadian and British flyers). Pence only as a word of their
 * own: "Was—7#9p" is OCR's garbled "Was 79p", not 9p.
 */
const CENTS_RE = new RegExp(String.raw`(?<![\d.,])(\d{1,2})\s*¢|(?<![^\s(])(\d{1,2})${PENNY}`, 'gu');
/**
 * "1,35L", "2,2kg", "1.5lt": an amount without a currency glued to a unit is a size, not a price
 * (with a space, "R$ 19,95 kg" and "2,99 kg" are prices per kilo).
 */
const GLUED_UNIT_AFTER = /^(?:kg|g|gr|l|lt|ml|cl|lbs?|oz)(?![\p{L}\d])/iu;
/**
 * "Coca-Cola 1,25 l", "Vinho 0,75 L", "0,75-l-Flasche": in a text layer, an amount without a
 * currency before a volume is the bottle's size even with a space (nobody prices a litre so; a kilo,
 * "2,99 kg", yes). Not on a line OCR read: it reads a price's sign as an "L" ("18,90 L").
 */
const VOLUME_AFTER = /^\s*-?\s*(?:l|lt|ml|cl|liter|litre|litro)(?![\p{L}\d])/iu;
/** "7.25-8 oz": a size range, not a price. */
const SIZE_RANGE_AFTER = /^\s*[-–]\s*\d+(?:[.,]\d+)?\s*(?:oz|lbs?|g|kg|ml|cl|l|ct|fl)\b/i;
/** Dates look like prices ("12.10."): they are blanked out before prices are searched. */
const DATE_RE = /\b\d{1,2}\.\d{1,2}\.(?:\d{2,4})?|\b\d{1,2}\/\d{1,2}(?:\/\d{2,4})?(?![\w¢])/g;
/**
 * A regular price's words beyond "was" and "statt", in the languages flyers print: Quebec's "Prix
 * régulier", "Rég.", "Prix normal", Latin America's "Precio normal", Portugal's "Preço normal",
 * Italy's "Prezzo pieno", "Prezzo di listino", Germany's "Normalpreis", the US discounters' "Compare
 * at", "MSRP", Britain's "Usual price".
 */
const REGULAR_PRICE_WORDS = String.raw`(?:prix\s+(?:r[ée]gulier|normal|habituel)|r[ée]gulier|r[ée]g\.|pre(?:cio|ço|co)\s+(?:normal|regular|anterior|habitual)|prezzo\s+(?:normale|pieno|di\s+listino|consigliato)|normalpreis|originalpreis|usual(?:ly)?(?:\s+price)?|compare\s+at|msrp)(?!\p{L})`;
/**
 * Words before a regular price: "was", "statt", "Reg.", "antes", "au lieu de", "De R$ … por", and the
 * price without the loyalty card ("without member card", "Sem cartão", "ohne Kundenkarte", "sin
 * tarjeta", "Prix sans carte"). "R" is the rest of "R$" (the sign is part of the price). The line
 * striking a regular price through is read as dashes ("Reg.-$0.80"). A non-member's price
 * ("Non-member $2.49", "Nicht-Mitglieder", "Não sócio") is the regular one too.
 */
const OLD_MARK_RE = new RegExp(
  String.raw`(?:\b(?:was|statt|reg(?:ular|\.)?(?: price)?|uvp|p\.?v\.?p\.?|vorher|bisher|sonst|orig(?:inal|\.)?|antes|au lieu de|anzich[ée]|invece di|de)|(?:without|sem|sin|sans|ohne|senza)\s+(?:member\s+|kunden)?(?:card|cart\S*|tarjeta|carte|karte|carta)|without\s+(?:a\s+)?(?:\p{L}*card|nectar|lidl\s?plus)|non[- ]?members?(?:\s+price)?|nicht[- ]?mitglieder(?:preis)?|non[- ]adh[ée]rents?|n[ãa]o[- ]s[óo]cios?|no[- ]socios?|non[- ]soci|(?<!\p{L})${REGULAR_PRICE_WORDS})(?:\s*R)?[\s\-–—]*:?\s*$`,
  'iu',
);
/**
 * Words before a saving ("SAVE $4", "Économisez 0,50 €", "Ahorra 1 €", "Sie sparen 2,00 €"): the
 * amount saved is neither the offer's price nor its regular one, and is not read as a price.
 */
const SAVING_MARK_RE =
  /(?:\b(?:save|you save|ahorra|ahorre|ahorro|sparen|spare|economize|economia|risparmi|risparmia)|[ée]conomi[sz]e[zr]?)\s*:?\s*(?:up to|jusqu'?[àa]|hasta|bis zu|at[ée]|fino a)?\s*(?:R\s*)?$/iu;
const NEW_MARK_RE =
  /\b(?:now|jetzt|nur|only|sale|aktion|angebot|ahora|agora|maintenant|adesso|ora)\s*:?\s*$/i;
/**
 * "De R$ 67,39 por R$ 51,99": the amount "por" follows is the regular price, the "De" before it
 * lost or not (OCR reads it into the big price's "R$", and glues "-por" to the amount). "por" before
 * a unit ("R$ 4,99 por kg") is a rate, and before a count's "R$" a multi-buy's total follows it.
 */
const FROM_PRICE_AFTER = /^\s*[-–]?\s*por\s*(?:$|R\s*\$|\d{1,4}[.,]\d{2}(?!\s*(?:k?g|m?l|l)\b))/iu;

/** No Arabic-script letter on that side: JavaScript's \b knows ASCII letters only. */
const RTL_EDGE = String.raw`(?<![\u0600-\u06ff])`;
const RTL_END = String.raw`(?![\u0600-\u06ff])`;
/**
 * Arabic and Persian words before a regular price, in reading order: "بدون البطاقة" and "بدون کارت"
 * (without the card), "السعر السابق", "السعر القديم", "السعر الأصلي", "قیمت قبلی", "قیمت اصلی"
 * (the former, original price; OCR reads قیمت's م as س, and either yeh), "بدلاً من" (instead of).
 */
const RTL_OLD_WORDS = [
  String.raw`بدون\s*(?:ال)?بطاق[ةه]`,
  String.raw`بدون\s*[کك]ارت`,
  String.raw`السعر\s*(?:السابق|القديم|الأصلي|الاصلي)`,
  String.raw`ق[یي][مس]ت\s*(?:قبل[یي]|اصل[یي])`,
  String.raw`بدلا[ًً]?\s*من`,
  // Hebrew: "במקום" (instead of), "מחיר רגיל" (regular price).
  String.raw`במקום`,
  String.raw`מחיר\s*רגיל`,
];
/**
 * Arabic and Persian words before a saving ("وفر ٣ درهم": save 3 dirhams; "توفير", "تخفیف ۲ €":
 * a discount of 2 €), which is neither the offer's price nor its regular one. "با تخفیف" (with the
 * discount) and "بعد الخصم" (after the discount) name the price paid, and are not these words.
 */
const RTL_SAVING = String.raw`وفّ?ر|توفير`;
const RTL_DISCOUNT = String.raw`تخف[یي]ف`;
/**
 * A right-to-left line's words come two ways: in reading order (a text layer's string: the words,
 * then the amount) and in their places on the page (OCR's words of a line with digits, left to
 * right: the amount, then the words, each word's order reversed).
 */
const reversedWords = (pattern: string) =>
  pattern.includes('\\s*') ? pattern.split('\\s*').reverse().join('\\s*') : pattern;
const rtlBefore = (words: string[]) =>
  new RegExp(String.raw`${RTL_EDGE}(?:${words.join('|')})${RTL_END}\s*:?\s*$`, 'u');
const glued = (pattern: string) => pattern.replaceAll('\\s*', '');
/** After the amount on the page, the words reversed, or glued into one word OCR read in reading order. */
const rtlAfter = (words: string[]) =>
  new RegExp(
    String.raw`^\s*:?\s*${RTL_EDGE}(?:${[...words.map(reversedWords), ...words.map(glued)].join('|')})${RTL_END}`,
    'u',
  );
const RTL_OLD_BEFORE = rtlBefore(RTL_OLD_WORDS);
const RTL_OLD_AFTER = rtlAfter(RTL_OLD_WORDS);
const RTL_SAVING_BEFORE = rtlBefore([RTL_SAVING, String.raw`(?<!با\s*)${RTL_DISCOUNT}`]);
/** In the page's order "با" stands after "تخفیف": a price "with the discount". */
const RTL_SAVING_AFTER = new RegExp(
  String.raw`^\s*:?\s*${RTL_EDGE}(?:${RTL_SAVING}|${RTL_DISCOUNT}(?!\s*با${RTL_END}))${RTL_END}`,
  'u',
);

/** What the words beside an amount (`before` and `after` it in the text) say it is. */
function markOf(before: string, after: string): 'old' | 'new' | 'saving' | undefined {
  if (SAVING_MARK_RE.test(before) || RTL_SAVING_BEFORE.test(before) || RTL_SAVING_AFTER.test(after))
    return 'saving';
  if (OLD_MARK_RE.test(before) || RTL_OLD_BEFORE.test(before) || RTL_OLD_AFTER.test(after)) return 'old';
  if (FROM_PRICE_AFTER.test(after)) return 'old';
  return NEW_MARK_RE.test(before) ? 'new' : undefined;
}

function amountOf(raw: string): number {
  // Thousands grouped: the marks between groups of three go, the last other one is the decimal point.
  if (/^\d{1,3}(?:([.,])\d{3})+(?:(?!\1)[.,]\d{2})?$/u.test(raw))
    return Number(raw.replace(/[.,](?=\d{3}(?:\D|$))/gu, '').replace(',', '.'));
  const cleaned = raw
    .replace(/[,.](?:-{1,2}|–)$/, '')
    .replace(/^[-–—](?=[.,])/, '0')
    .replace(',', '.');
  return Number(cleaned);
}

export function blankDates(text: string): string {
  return text.replace(DATE_RE, (match) => ' '.repeat(match.length));
}

const MONEY = String.raw`(?:(?:R\$|[€$£₪])\s*)?(?:\d{1,4}(?:[.,]\d{1,2})?|[-–—][.,]\d{2})\s*(?:[€$£₪¢])?`;
const BASE_UNIT = String.raw`(?:kg|l|lt|litre|liter|litro|lb|oz|100\s*g|100\s*ml|10\s*g)`;
/**
 * Reference prices, what an amount comes to per kilo, litre or ounce, printed beside offers (the
 * EU requires them; US shelf tags print them): "(1 kg = 4,98)", "100 g = 0,50 €", "soit 11,96 € le
 * kg", "al kg € 7,92", "Grundpreis 7,98 €/kg", "33¢ per oz", "$0.21/oz", and a per-kilo price after
 * the small pack it is for ("250 g, 11,96 €/kg"; after "1 kg" or "2 kg" it may be the price). They are neither the offer's price nor a regular
 * one, and they are no part of a name: blanked out before prices and names are read.
 */
const REFERENCE_PRICE_RE = new RegExp(
  [
    String.raw`(?:\(\s*)?(?:1|10|100|1000)\s*(?:kg|g|l|ml|lb|oz|st(?:ück|k)?\.?)\s*=\s*${MONEY}\s*\)?`,
    String.raw`(?:soit|equivale a|entspricht|grundpreis|kilopreis|literpreis|prezzo al|preço (?:do|por)|precio (?:por|del))\s*(?:kg|l|litro|kilo|100\s*g)?\s*:?\s*${MONEY}(?:\s*(?:\/|le|la|el|o|al|per|pro|je|the)\s*${BASE_UNIT})?`,
    String.raw`(?<![\p{L}])al\s+(?:kg|l|litro|kilo|100\s*g)\s*:?\s*${MONEY}`,
    String.raw`(?<![\d.,])${MONEY}\s*(?:\/|per|pro|je)\s*(?:oz)(?![\p{L}\d])`,
    String.raw`(?<=(?<![\d.,])\d+(?:[.,]\d+)?\s*(?:g|ml|cl|oz)(?![\p{L}\d])[^\d€$£]{0,12})${MONEY}\s*(?:\/|per|pro|je)\s*(?:kg|l|lb)(?![\p{L}\d])`,
  ].join('|'),
  'giu',
);

/** The text with its reference prices ("(1 kg = 4,98)", "33¢ per oz") blanked out. */
export function blankReferencePrices(text: string): string {
  return text.replace(REFERENCE_PRICE_RE, (match) => ' '.repeat(match.length));
}

/**
 * Every price in the text, left to right, with was/now markers from the words before it.
 * `ocrLine`: the text is one line OCR read, its words in their places on the page.
 */
export function findPrices(text: string, ocrLine = false): PriceToken[] {
  const clean = blankReferencePrices(blankDates(text));
  const tokens: PriceToken[] = [];
  const taken = new TakenSpans(clean.length);
  const pieces = ocrLine ? PIECES_LINE_AS_PRINTED_RE.exec(clean) : null;
  if (pieces) {
    const count = Number(pieces[2]);
    const total = amountOf(pieces[1]!);
    if (total > 0)
      return [{ value: round2(total / count), start: 0, end: clean.length, marked: 'new', multiBuy: count }];
  }
  for (const match of clean.matchAll(CENTS_MULTI_BUY_RE)) {
    const count = Number(match[1]);
    const total = Number(match[2]) / 100;
    if (!(count >= 2) || !(total > 0)) continue;
    const [start, end] = [match.index, match.index + match[0].length];
    taken.take(start, end);
    tokens.push({ value: round2(total / count), start, end, marked: 'new', multiBuy: count });
  }
  for (const match of clean.matchAll(MULTI_BUY_RE)) {
    const count = Number(match[1]);
    const total = amountOf(match[3] ?? '');
    if (!(count >= 2) || !(total > 0) || (!match[2] && !match[4] && !/[.,]/.test(match[3] ?? ''))) continue;
    const start = match.index;
    // "Pacote com 3 unidades por R$ 10,00": what a pack holds, priced whole.
    if (COUNTED_RE.test(match[0]) && PACK_HOLDS_BEFORE.test(clean.slice(Math.max(0, start - 12), start)))
      continue;
    const end = start + match[0].length;
    taken.take(start, end);
    tokens.push({ value: round2(total / count), start, end, marked: 'new', multiBuy: count });
  }
  for (const match of clean.matchAll(PIECES_FOR_AS_PRINTED_RE)) {
    const count = Number(match[3]);
    const total = amountOf(match[2] ?? '');
    const start = match.index;
    const end = start + match[0].length;
    if (!(count >= 2) || !(total > 0) || taken.overlaps(start, end)) continue;
    taken.take(start, end);
    tokens.push({ value: round2(total / count), start, end, marked: 'new', multiBuy: count });
  }
  for (const match of clean.matchAll(CENTS_RE)) {
    const start = match.index;
    const end = start + match[0].length;
    if (taken.overlaps(start, end)) continue;
    taken.take(start, end);
    // "0¢" is no price: OCR's second reading of part of a "50¢" beside it.
    const value = round2(Number(match[1] ?? match[2]) / 100);
    if (!(value > 0)) continue;
    const marked = markOf(clean.slice(Math.max(0, start - 24), start), clean.slice(end, end + 24));
    if (marked === 'saving') continue;
    tokens.push({ value, start, end, marked });
  }
  for (const match of clean.matchAll(PRICE_RE)) {
    const start = match.index;
    const end = start + match[0].length;
    if (taken.overlaps(start, end)) continue;
    if (SIZE_RANGE_AFTER.test(clean.slice(end))) continue;
    if (match[5] && GLUED_UNIT_AFTER.test(clean.slice(end))) continue;
    if (match[5] && !ocrLine && VOLUME_AFTER.test(clean.slice(end))) continue;
    const raw = match[2] ?? match[3] ?? match[5] ?? '';
    // "14.–20.8.": a date range's first day (its second was blanked as a date), no "24.–".
    if (/[-–]$/u.test(raw) && /^[-–]?\d/u.test(text.slice(end))) continue;
    if (!/[.,]/.test(raw) && COUNT_LOST_BEFORE.test(clean.slice(Math.max(0, start - 16), start))) continue;
    const value = amountOf(raw);
    if (!(value > 0) || value >= (GROUPED_RE.test(raw) ? MAX_GROUPED_AMOUNT : MAX_AMOUNT)) continue;
    const marked = markOf(clean.slice(Math.max(0, start - 24), start), clean.slice(end, end + 24));
    if (marked === 'saving') continue;
    tokens.push({ value, start, end, marked });
  }
  return tokens.sort((a, b) => a.start - b.start);
}

/**
 * Which characters a price already read covers: a mark a character, so that a line of thousands of
 * amounts (a hostile text item) is checked in linear time, not each amount against every other.
 */
class TakenSpans {
  readonly #taken: Uint8Array;

  constructor(length: number) {
    this.#taken = new Uint8Array(length);
  }

  take(start: number, end: number): void {
    this.#taken.fill(1, start, end);
  }

  overlaps(start: number, end: number): boolean {
    return this.#taken.subarray(start, end).includes(1);
  }
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Words that frame a price and are not part of a product name. */
const FRAME_WORDS =
  /\b(?:jetzt|nur|now|ahora|agora|maintenant|adesso|was|statt|only|sale|reg(?:ular)?|uvp|pvp|vorher|bisher|sonst|je|per|pro|ab|save|sparen?|aktion|angebot|price|preis|each|ea|st(?:ück|k)?\.?|for|für|fiir)\b/gi;

const UNIT_WORD = String.raw`(?:kg|unité|unidad|pièce|pezzo|kilo(?:gramm?|s)?|quilos?|chilo|g|gr|gramm?|lbs?|pounds?|oz|l|lt|liter|litre|litro|ml|cl|stück|stk|st|pcs?|pieces?|pièces?|pezzi|each|ea|unid(?:ades?)?|un|pç|peças?|bund|bunch|pack(?:ung)?|pk|pacote|pct|dose|can|lata|flasche|bottle|garrafa|sack|beutel|bag|glas|jar|box|caixa|cx|schale|tray|bandeja|becher|cup|dozen|dz|slices?|tranches?|scheiben|rebanadas?|lonchas?|fatias?|gal|gallons?|qt|quarts?|pt|pints?|fl\.? ?oz|کیلو(?:گرم)?|گرم|لیتر|عدد|بسته|كيلو|كغ|كجم|غرام|جرام|لتر|حبة|علبة|ליטר|גרם|קילו|ק["״]ג|מ["״]ל|יחידות|יחידה|יח')`;
/** The end of a unit word: no letter or digit of any script follows (JavaScript word boundaries are ASCII-only). */
const END = String.raw`(?![\p{L}\d])`;
/** What a North American pack size names after it ("10 lb bag", "2 lb box"): part of the pack, not of the name. */
const CONTAINER = String.raw`(?:\s+(?:bags?|box|boxes|pack|pkg|tray|tub|jar|bottle|can|sack|net|clamshell)${END})?`;
/**
 * "per kg", "/kg", "je 100 g", "pro Stück", "1 l", "500g", "8 x 125 g", "10 lb bag", "3 Stück", "1 Sack (10Kg)", "each",
 * "cada 100g", "Unidade"; a pack's count after "c/" (com, con: with), "c/30", "C/12 un", and
 * Spanish "c/u" (cada uno, each).
 */
/**
 * A pack's count ("94CT", "18 ct", "6 count"), not after the words that price a German cent amount
 * ("je 49 Ct.", "nur 99 ct"): there "ct" is the currency.
 */
const PACK_COUNT = String.raw`(?<![\p{L}\d])(?<!(?:je|nur|für|ab|statt|pro|um)\s{0,3})\d+\s*(?:ct|count)${END}`;
/** Italian delis price by the hectogram: "all'etto", "l'etto", "per etto" (100 g). */
const PER_ETTO = String.raw`(?<![\p{L}\d])(?:(?:al|per\s)l?['’]?\s*|l?['’]\s*)?etto(?![\p{L}\d])`;
/** A German pack's size in one hyphenated word: "500-g-Packung", "0,75-l-Flasche", "1-kg-Beutel". */
const COMPOUND_PACK = String.raw`(?<![\p{L}\d])\d+(?:[.,]\d+)?-(?:kg|g|l|ml|cl)-\p{L}+\.?`;
const UNIT_RE = new RegExp(
  String.raw`(?:${PACK_COUNT}|${COMPOUND_PACK}|${PER_ETTO}|(?<![\p{L}\d])(?:per|pro|je|le|la|l['’]|el|al|o|por|cada|the|\/|ל-?)\s*(?:\d+(?:[.,]\d+)?\s*)?${UNIT_WORD}${END}|(?<![\p{L}\d])(?:kg|lbs?|گرم|کیلو|كيلو|غرام|جرام|عدد|حبة)${END}|(?<![\p{L}\d])(?:\d{1,2}\s*[x×]\s*)?\d+(?:[.,]\d+)?\s*${UNIT_WORD}${END}${CONTAINER}(?:\s*\(\s*\d+(?:[.,]\d+)?\s*${UNIT_WORD}\s*\))?|\beach\b|(?<![\p{L}\d])(?:cada|unidade|unidad|unité|stück)(?![\p{L}\d])|\bea\.?(?=\s|$)|(?<![\p{L}\d])c\/\s?(?:\d+(?:\s*(?:un(?:id(?:ades?)?|ds?)?|p[çc]s?)\.?)?|u)${END})`,
  'iu',
);

/** The unit or pack size printed with an offer, as written (trimmed), or undefined. */
export function findUnit(text: string): string | undefined {
  // "18 عدد 3": pieces sold together, each at its share of the total.
  if (PIECES_LINE_AS_PRINTED_RE.test(text)) return 'each';
  const match = UNIT_RE.exec(blankPrices(text));
  if (!match) return undefined;
  return normaliseUnit(match[0]);
}

function normaliseUnit(raw: string): string {
  const unit = raw.trim().replace(/\s+/g, ' ');
  const rate = /^(?:per|pro|je|le|la|l['’]|el|al|o|por|cada|the|\/|ל-?)\s*(.+)$/iu.exec(unit);
  if (/^(?:kg|lbs?)$/i.test(unit)) return `per ${unit.toLowerCase()}`;
  if (/etto$/iu.test(unit)) return 'per 100 g';
  if (rate) return `per ${rate[1]!.trim()}`.replace(/\bper (ea|each)\.?$/i, 'each');
  // A word for "piece" alone under a name ("Abacaxi Pérola / Unidade") prices one of it.
  if (/^(?:ea\.?|cada|unidade|unidad|unité|stück|c\/u)$/iu.test(unit)) return 'each';
  return unit;
}

const PACK_SIZE_RE =
  /^(?:(\d{1,2})\s*[x×]\s*)?(\d+(?:[.,]\d+)?)\s*(kg|kilos?|g|gr|l|lt|litros?|lit[er]{2}|ml|cl)(?:\s+\p{L}+)?$/iu;
const PER_BASE_RE = /^per (kg|kilo|quilo|chilo|l|lt|litro|liter|litre)$/iu;
const PER_HUNDRED_RE = /^per 100\s*(g|ml)$/iu;

/** What a pack holds ("700 g", "2 x 350 g", "1 l"), in grams or millilitres, and which of them. */
function packContent(packUnit: string): { mass: boolean; amount: number } | undefined {
  const pack = PACK_SIZE_RE.exec(packUnit);
  if (!pack) return undefined;
  const unit = pack[3]!.toLowerCase();
  const perUnit = unit === 'g' || unit === 'gr' || unit === 'ml' ? 1 : unit === 'cl' ? 10 : 1000;
  const amount = Number(pack[1] ?? 1) * Number(pack[2]!.replace(',', '.')) * perUnit;
  return { mass: /^(?:kg|kilos?|g|gr)$/u.test(unit), amount };
}

/**
 * Whether a price per 100 g or 100 ml is what a pack's `price` comes to ("200 g", "2,49 €", "1,25
 * €/100 g"): a reference price printed beside it. The per-100 price is rounded to the cent, so the
 * pack's comes back within half a cent per hundred.
 */
export function isPerHundredOf(rate: number, rateUnit: string, packUnit: string, price: number): boolean {
  const base = PER_HUNDRED_RE.exec(rateUnit)?.[1]?.toLowerCase();
  const pack = packContent(packUnit);
  if (!base || !pack || pack.mass !== (base === 'g')) return false;
  const hundreds = pack.amount / 100;
  return hundreds > 0 && Math.abs(rate * hundreds - price) <= hundreds * 0.005 + 0.001;
}

/**
 * A pack's price from the price per kilo or litre printed for it ("700 g", "3,70 al kg": 2.59).
 * Only for packs up to a kilo or a litre: the per-kilo price is rounded to the cent from the pack's,
 * so below a kilo the pack's price comes back exactly; above, it may be a cent off.
 */
export function packPriceFromRate(rate: number, rateUnit: string, packUnit: string): number | undefined {
  const base = PER_BASE_RE.exec(rateUnit)?.[1]?.toLowerCase();
  const pack = packContent(packUnit);
  if (!base || !pack || pack.mass !== /^(?:kg|kilo|quilo|chilo)$/u.test(base)) return undefined;
  const size = pack.amount / 1000;
  if (!(size > 0 && size <= 1)) return undefined;
  return round2(rate * size);
}

export function blankPrices(text: string): string {
  const out = blankReferencePrices(blankDates(text));
  // Joined once: a line of thousands of amounts was copied whole for each of them.
  const pieces: string[] = [];
  let from = 0;
  for (const token of findPrices(text)) {
    const start = Math.max(token.start, from);
    if (token.end <= start) continue;
    pieces.push(out.slice(from, start), ' '.repeat(token.end - start));
    from = token.end;
  }
  pieces.push(out.slice(from));
  return pieces.join('');
}

/**
 * Words that caption the price printed right after them, never part of a name: "Precio oferta",
 * "Preço promocional", "Por apenas", "Prix promo", "Seulement", "Dès", "Prezzo offerta", "Angebotspreis",
 * "Our price", "Desde", "Sólo", a British multi-buy's "Any" ("Any 3 for £5"); and, only before a currency sign, words a name may hold ("From $3.99"
 * but "Cheese from 2 farms", "Dal € 0,89" but "Toor Dal 1 kg").
 */
const PRICE_CAPTION = new RegExp(
  String.raw`(?<!\p{L})(?:(?:(?:our|sale|special|low|deal|offer|promo(?:tional)?)\s+price|now\s+only|pre(?:cio|ço|co)\s+(?:de\s+)?(?:oferta|especial|promo\p{L}*|baixo|bajo)|prix\s+(?:promo|sp[ée]cial|choc|bas)|super\s*prix|prezzo\s+(?:offerta|speciale|promo\p{L}*)|(?:angebots|aktions|sonder|tief|super)preis|(?:por|a)\s+(?:s[óo]lo|apenas|s[óo])|s[óo]lo|apenas|seulement|desde|dès|a\s+soli|any(?=\s+\d+\s+for\b))\s*:?\s*(?=R?\s?[$€£₪]|\d)|(?:only|from|just|s[óo]|dal|oferta|offerta)\s*:?\s*(?=R?\s?[$€£₪]))`,
  'giu',
);

/** The name-like rest of a text once prices, units and framing words are removed. */
export function residualName(text: string): string {
  let rest = blankPrices(text.replace(PRICE_CAPTION, (caption) => ' '.repeat(caption.length)));
  const unit = UNIT_RE.exec(rest);
  if (unit) rest = rest.slice(0, unit.index) + ' ' + rest.slice(unit.index + unit[0].length);
  return rest
    .replace(RATE_UNIT, ' ')
    .replace(DISCOUNT_BADGE, ' ')
    .replace(/\(\s*\)/gu, ' ')
    .replace(FRAME_WORDS, ' ')
    .replace(/[€$£*!:]+/g, ' ')
    .replace(/\s[-–/]\s/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A discount badge beside a name ("-34%", "– 25 %"): what the offer saves, no part of what is sold ("80% lean" is). */
const DISCOUNT_BADGE = /(?<![\p{L}\d])[-–]\s*\d{1,2}(?:[.,]\d)?\s*%/gu;

/** The measure a second price is per, its price blanked ("$1.99/lb ($4.39/kg)": "/kg"). */
const RATE_UNIT = /(?<![\p{L}\d])\/\s*(?:kg|lbs?|l|100\s*g|100\s*ml)(?![\p{L}\d])/giu;

/** A cell is a unit cell when nothing but a unit/pack size remains in it. */
export function isOnlyUnit(raw: string): boolean {
  const text = blankReferencePrices(raw);
  const unit = UNIT_RE.exec(text);
  if (!unit) return false;
  const rest = (text.slice(0, unit.index) + text.slice(unit.index + unit[0].length))
    .replace(FRAME_WORDS, ' ')
    .replace(/[^\p{L}\d]+/gu, '');
  return rest.length === 0;
}

/**
 * Lines flyers print beside offers that are never a product: purchase limits, conditions and
 * footnotes ("Limite de 6 unid. por cliente", "Limit 4 per customer", "max. 5 Stück pro Kunde",
 * "while supplies last", "solo in negozio"), and a price label's word left alone on its line by
 * OCR ("Prix" over "sans carte 0,79 €"). Several languages.
 */
const NOT_A_PRODUCT =
  /^\s*(?:prix|pre[çc]o|precio|prezzo|preis|price|sans|sin|sem|senza|ohne|without)\s*$|^\s*(limit[ae]?|promo\p{L}*\s+limit\p{L}*|m[áa]x(?:imo|\.)?|max\.?|only|solo|somente|apenas|nur|while supplies|enquanto durarem|hasta agotar|fino ad esaurimento|jusqu'?[àa] [ée]puisement|solange der vorrat)\b|\b(par client|por pessoa|por cpf)\b/iu;

/**
 * A discount badge's headline ("DESCONTO EXCLUSIVO" over the price paid with the shop's card,
 * "Descuento app", "Sconto 30 %", "Rabatt mit Karte", "Remise immédiate"): it says how a tile is
 * priced, never what it sells, and OCR reads it as a line of its own over the badge's price.
 */
const BADGE_HEADLINE = /^\s*(?:desconto|descuento|sconto|discount|rabatt|remise)(?!\p{L})/iu;
/**
 * A promotion's headline alone on its line ("Aktionspreis", "Super Oferta", "Prix choc",
 * "Sottocosto", "Weekly Special", "Rollback"): it says the price is a deal, not what is sold.
 */
const PROMO_HEADLINE =
  /^\s*(?:super[- ]?|top[- ]?|mega[- ]?)?(?:ofertas?|oferta del d[íi]a|promo|promo[çc][ãa]o|promo[çc][õo]es|promoci[óo]n|angebot|aktion|aktionspreis|tiefpreis|dauertiefpreis|preis-hit|preishit|kn[üu]ller|kracher|offre sp[ée]ciale|prix choc|sottocosto|prezzo speciale|precio especial|special|weekly special|hot deal|rollback|imbat[íi]vel|baixou|pre[çc]o baixo|pre[çc]o|price|deal)\s*!*\s*$/iu;

/** A member or club price badge ("Member price", "Exclusividade Cliente Clube"). */
export function isMemberBadge(text: string): boolean {
  return MEMBER_NOTE.test(withoutLeadingMarks(text));
}

export function isBadgeHeadline(text: string): boolean {
  const line = withoutLeadingMarks(text);
  return BADGE_HEADLINE.test(line) || PROMO_HEADLINE.test(line);
}

/**
 * Lines that annotate a price, never a product: member and regular prices, "was" prices and
 * savings ("without member card $3.49", "Sem cartão R$ 6,29", "De R$ 8,79 por", "Au lieu de",
 * "ohne Kundenkarte", "Sin tarjeta", "Prix sans carte", "SAVE $2", "Sie sparen", "Leve 3 pague 2"),
 * and the conditions of a multi-buy ("Levando 3 unidades pague 2. Nesta promoção a unidade sai
 * por", "Nesta embalagem cada unidade sai por"), whose price is the offer's per unit, or the
 * quantity it starts at ("Compre a partir de 3 unid.", "Comprando 2", "À partir de 2", "Ab 3 Stück"),
 * OCR often reading its words as lines apart ("COMPRE", "A PARTIR DE").
 * OCR garbles them ("Sem cartdo"), so the words are matched by their start.
 */
const PRICE_NOTE = new RegExp(
  String.raw`^\s*(?:without\b|buy \d+,? get \d+|bogo\b|b\dg\d\b|with (?:a |the )?(?:digital |store )?coupons?\b|(?:avec|com|con|mit) (?:la |o |der |votre |seu |su )?(?:kunden)?(?:carte|cart[ãa]o|tarjeta|karte|carta)|p\.?v\.?p\.?(?![\p{L}])|\d\s*\+\s*\d\s*(?:gratis|free|gratuit|gr[áa]tis|gratuito|omaggio)|(?:digital|clip) coupon|non[- ]?members?|nicht[- ]?mitglied|non[- ]adh[ée]rent|n[ãa]o[- ]s[óo]cio|no[- ]socio|non[- ]soci|with(?:out)? (?:member )?card|regular\b|reg\b\.?|was\b|you save|save\b|sem cart|com cart|de\W+r\W|economi[sz]|leve\b|\d+\s*(?:f\s?(?:[uü]|ii)\s?r|for|pour|por|para|x)\s*$|\d+\s*[ªºa°]\s*unid|pague|levando\b|llevando\b|compr(?:e|ando)\b|(?:[aà]\s?)?partir de\b|ab \d+\s*(?:st|x\b)|nest[ae] (?:promo|embal)|promo[cç][aã]o a\b|(?:cada |a )?unidade sai|sai(?: por)?\s*$|por(?:\s+R\$?)?\s*$|sin tarjeta|antes\b|ahorra|au lieu|prix (?:sans|r[ée]g)|${REGULAR_PRICE_WORDS}|[ée]conomisez|ohne (?:kunden)?karte|statt\b|sie sparen|uvp\b|anzich|invece di|senza carta|risparmi|(?:member |kunden)?(?:card|cart[ãa]o|tarjeta|carte|karte)(?:\s+R\$?)?\s*$)`,
  'iu',
);

/**
 * A loyalty scheme's name before its price: British supermarkets' cards ("Clubcard", "More Card"),
 * "Nectar", "Lidl Plus", a loyalty or rewards app.
 */
const LOYALTY_SCHEME = String.raw`(?:\p{L}*\s?card|nectar|lidl\s?plus|loyalty|rewards?|app)`;
/**
 * Badges over a member's or loyalty club's price ("Exclusividade Cliente Clube", "Exclusivo para
 * sócios", "Member price", "Members only", "Preço Clube", "Prix adhérent", "Precio socio",
 * "Mitgliederpreis", "Promoção exclusiva para cliente Save Ganhe"): they say who pays the price
 * under them, not what is sold. A word of the programme alone ("Club Soda") is a name; the badge
 * leads with its exclusivity or its price, and
 * names the programme within a few words (OCR garbles the ones between: "Exclusividade COllente
 * Clube").
 */
const MEMBER_NOTE = new RegExp(
  String.raw`^\s*(?:(?:promo\p{L}*\s+|ofert\p{L}*\s+|offre\s+|angebot\s+)?exclusiv\p{L}*(?:\s+\S+){0,3}?\s+(?:client|kund|member|membr|mitglied|s[óo]ci|club|adh[ée]rent|miembr|assinant|titular)\p{L}*|(?:pre[çc]o|precio|prix|prezzo|price|oferta|offre|angebot)\s+(?:(?:do|de|del|du)\s+)?(?:clube?|s[óo]cio|membro|member|adh[ée]rent|fid[ée]lit[ée])(?![\p{L}\p{N}])|(?:member|club|clube)\s+(?:price|pre[çc]o|prix|precio|deal)\b|${LOYALTY_SCHEME}\s+(?:price|deal|offer)s?(?![\p{L}\p{N}])|members?\s+only\b|mitglieder(?:preis|angebot)|kundenkartenpreis)`,
  'iu',
);

/**
 * Arabic and Persian price notes, wherever they stand in a right-to-left line: card prices
 * ("بدون البطاقة", "بدون کارت": without the card; "با کارت": with the card) and former prices
 * ("قیمت قبلی", "قیمت اصلی": previous, original price, OCR often reading its م as س; "السعر
 * السابق", "السعر القديم"; "بدلاً من": instead of; Hebrew "במקום", "מחיר רגיל"). Neither a card nor
 * a price is a product.
 */
const CARD_NOTE_RTL =
  /במקום|מחיר\s*רגיל|(?:ال)?بطاقة|کارت|كارت|قی[مس]ت\s*(?:قبلی|اصلی)|(?:قبلی|اصلی)\s*قی[مس]ت|السعر\s*(?:السابق|القديم|الأصلي)|بدلا[ًً]?\s*من|(?<![\u0600-\u06ff])(?:السابق|قبلی)(?![\u0600-\u06ff])/u;

/**
 * Arabic-script words that say how an offer is priced or sold, never what it is: currencies
 * (درهم, ریال, دینار, جنیه, تومان, یورو), units and packs (گرم, کیلو, کغ, لتر, عدد, حبة, بسته, عبوة),
 * price labels (السعر, قیمت, قبلی, السابق, القدیم) and offer words (وفر: save; تخفیف, خصم: discount;
 * بدون: without; فقط: only; عرض: offer). Written with Persian yeh and kaf; words are compared in
 * that form.
 */
const RTL_PRICE_WORDS = new Set(
  (
    'درهم دراهم ریال دینار جنیه تومان یورو دولار لیره ' +
    'گرم غرام جرام کیلو کیلوگرم کغ کجم کگ لتر لیتر میل مل عدد حبة قطعة بسته عبوة ' +
    'السعر سعر قیمت قبلی اصلی السابق القدیم الاصلی الأصلی ' +
    'وفر تخفیف خصم بدون فقط عرض عروض'
  )
    .split(' ')
    .map(persianForms),
);
/**
 * Those also recognised a letter off (OCR's "قیست" for "قیمت", "رهم" for "درهم"): none is a letter
 * from a food's name, as "بسته" (a pack) is from "پسته" (pistachios).
 */
const RTL_PRICE_WORDS_MISREAD = 'درهم دراهم قیمت قبلی اصلی السعر السابق القدیم تخفیف کیلوگرم لتر لیتر عبوه'
  .split(' ')
  .map(persianForms);

/** A word as the price words are listed: Persian yeh and kaf, no vowel marks or tatweel, ة as ه. */
function persianForms(word: string): string {
  // NFD first: a hamza or madda written as one letter (أ, آ) is alef and its mark, dropped below.
  return inPersianForms(word.normalize('NFD'))
    .replace(/[\u064B-\u065F\u0670\u0640]/gu, '')
    .replace(/ة/gu, 'ه');
}

/**
 * An Arabic-script price word, as printed or a letter off; a leading alef before a unit or currency
 * is the digit one OCR reads as that letter ("اگرم" for "1 گرم").
 */
export function isRtlPriceWord(raw: string): boolean {
  const word = persianForms(raw.replace(/[^\p{L}\p{M}]/gu, ''));
  if (!/^\p{Script=Arabic}+$/u.test(word)) return false;
  if (RTL_PRICE_WORDS.has(word)) return true;
  // A count of one glued to its unit, the ١ read as alef ("اگرم"), and گ as ک ("اکرم").
  if (word.startsWith('ا') && RTL_PRICE_WORDS.has(word.slice(1).replace(/ک/gu, 'گ'))) return true;
  if (word.startsWith('ا') && RTL_PRICE_WORDS.has(word.slice(1))) return true;
  return word.length >= 3 && RTL_PRICE_WORDS_MISREAD.some((known) => oneEditApart(word, known));
}

/**
 * Arabic and Persian words that name nothing (this, that, from, to, in, with, for, or, and): what
 * OCR kept of a name it lost ("این" of "برنج ایرانی") is no product.
 */
const RTL_FUNCTION_WORDS = new Set(
  [
    ...'این آن از به با در و که را برای یا'.split(' '), // Persian
    ...'من في على إلى الى عن هذا هذه مع أو او ال'.split(' '), // Arabic
  ].map(persianForms),
);

function onlyFunctionWords(named: string): boolean {
  const words = named.split(/[\s\u200c]+/u).filter((w) => /\p{L}/u.test(w));
  return (
    words.length > 0 &&
    words.every((w) => RTL_FUNCTION_WORDS.has(persianForms(w.replace(/[^\p{L}\p{M}]/gu, ''))))
  );
}

/**
 * Words of Latin-script languages that name nothing (of, for, per, the, and): a cell of them alone
 * is what OCR kept of a price's words ("R por" of "De R$ … por", "2 pour 5 Ë", "fir" of "für"),
 * no product. Words of one letter ("à", "e", a misread sign) and currencies are not counted.
 */
const LATIN_FUNCTION_WORDS = new Set(
  'de del di da do das dos du des la le les el los las lo the and of for per pour por para für fur fir und mit with avec con com et ou or oder au al em en in on ao no na nos nas'.split(
    ' ',
  ),
);

/**
 * Words that count or measure what is sold, never name it: with function words alone ("10
 * unidades", "cada 100g", "per kg", "le pièce") they are a pack's size or a price's unit that OCR
 * read apart from the tile's name, not a product.
 */
const PACK_WORDS = new Set(
  'unidade unidades unid unidad un und cada peça peças pieza piezas pièce pièces pezzo pezzi pz stück stk each ea pack pk pct pacote paquete kg gr ml lt lb lbs oz'.split(
    ' ',
  ),
);

/**
 * Words of the conditions and badges printed around prices, never of a product: limits ("Limite de
 * 20 unid. por cliente"), multi-buys ("Leve 3 pague 2", "Compre a partir de"), card and club
 * prices ("No nosso cartão pague", "Save Ganhe"), a box's validity ("Ofertas válidas nesta
 * embalagem"). OCR reads them as lines of their own, which stood as names over tiles' prices.
 * Compared without accents.
 */
const NOTE_WORDS = new Set(
  (
    'limite limit limites partir pague paga pagá ganhe leve lleve levando llevando compre comprando compra ' +
    'cliente clientes customer customers client clients kunde kunden desconto descuento exclusivo exclusiva ' +
    'exclusivos cartão cartao tarjeta carte karte nosso nossa oferta ofertas válida válidas válido validas ' +
    'nesta neste embalagem promoção promocao promoción save sparen ahorra economize'
  )
    .split(' ')
    .map(withoutAccents),
);
/**
 * Note words that OCR's reading a letter off still is ("Limie", "pegue", "Fague"): long enough, or
 * distinct enough, that no food's or brand's name is a letter away. Not "nesta" ("Nestea"), "carte"
 * ("carne"), "nosso" ("rosso").
 */
const NOTE_WORDS_MISREAD = [...NOTE_WORDS].filter((w) => w.length >= 6 || w === 'pague' || w === 'ganhe');

const isNoteWord = (word: string): boolean =>
  NOTE_WORDS.has(word) || (word.length >= 5 && NOTE_WORDS_MISREAD.some((known) => oneEditApart(word, known)));

function withoutAccents(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '');
}

/**
 * A whole name of Latin-script words that name nothing (see LATIN_FUNCTION_WORDS), with at most
 * words of a pack's size (PACK_WORDS) and of a price's conditions (NOTE_WORDS). Asked of a whole
 * offer's name: one line of a name stacked over several ("CARNE / PARA / TAMALES") may be one.
 */
export function namesNothing(name: string): boolean {
  const words = latinWords(name);
  return (
    words.length > 0 &&
    words.every((w) => LATIN_FUNCTION_WORDS.has(w) || PACK_WORDS.has(w) || isNoteWord(withoutAccents(w)))
  );
}

/**
 * A line of a price's conditions alone ("Limite de 20 unid.", "GANHE PAGUE", "No nosso cartão"):
 * words that name nothing, one of them a condition's. Unlike a line of function words alone, it is
 * no line of a name stacked over several.
 */
function onlyConditions(text: string): boolean {
  const words = latinWords(text);
  return words.some((w) => isNoteWord(withoutAccents(w))) && namesNothing(text);
}

function latinWords(text: string): string[] {
  return text
    .replace(CURRENCY_WORDS, ' ')
    .split(/\s+/u)
    .map((w) => w.replace(/[^\p{L}]/gu, '').toLowerCase())
    .filter((w) => w.length >= 2 && /^\p{Script=Latin}+$/u.test(w));
}

/**
 * A shop's service note read where a name would be: free delivery from an amount ("Kostenlose
 * Lieferung innerhalb Berlins … ab 100 €", "Free delivery on orders over $35", "Entrega grátis"):
 * its amount is a minimum order, no product's price.
 */
const SERVICE_NOTE =
  /(?<![\p{L}])(?:lieferung|lieferservice|liefern|versand\p{L}*|delivery|deliveries|shipping|livraison|livr[ée]|entrega|env[ií]o|domicilio|consegna|bezorging|bezorgen)(?![\p{L}])/iu;

export function isServiceNote(name: string): boolean {
  return SERVICE_NOTE.test(name);
}

/** One substitution, insertion or deletion apart. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const restA = a.slice(i);
  const restB = b.slice(i);
  return restA.slice(1) === restB.slice(1) || restA.slice(1) === restB || restA === restB.slice(1);
}

/** Currency words and their OCR misreadings ("R$" read "RS"), which are not name letters. */
const CURRENCY_WORDS =
  /(?<!\p{L})(?:R\$|RS|R|US\$|EUR|USD|BRL|CAD|CHF|GBP|MXN|ARS|CLP|COP|PEN|PLN|TRY|AED|SAR|QAR|KWD|EGP|ILS|NIS|lei|руб|грн)(?!\p{L})/gu;

/**
 * A line that annotates a price (member, regular, "was", savings, multi-buy conditions). Marks
 * OCR reads before its first word (a quote from an ornament: "“Exclusividade Cliente Clube") do
 * not hide it.
 */
export function isPriceNote(text: string): boolean {
  const note = withoutLeadingMarks(text);
  return (
    PRICE_NOTE.test(note) || MEMBER_NOTE.test(note) || CARD_NOTE_RTL.test(text) || CUSTOMER_WORD.test(text)
  );
}

/**
 * The customer a badge or a limit speaks to ("Exclusividade Cliente Clube" read "É xéluslvidáne
 * Cliente Chibé", "Limite 6 kg por cliente", "per customer", "pro Kunde"): no product is named so,
 * however OCR garbled the words around it. A note, so that a name over it is still found (see
 * `nameAboveWithin`); it also stands for NOT_A_PRODUCT's limits per customer.
 */
const CUSTOMER_WORD = /(?<!\p{L})(?:clientes?|clienti|customers?|kunden?)(?!\p{L})/iu;

function withoutLeadingMarks(text: string): string {
  return text.replace(/^[\s"'„“”‚‘’«»*•·|]+(?=\p{L})/u, '');
}

/**
 * A note whose price only informs: what one unit of a multi-pack comes to ("Nesta embalagem cada
 * unidade sai por R$ 2,79", "that's 0.50 each"), not a price the shop charges.
 */
export const INFORMATIVE_NOTE = /\bnest[ae] embalagem\b|\bthat'?s (?:only )?\W?\d|\bsoit\b/iu;

/**
 * A flyer's validity statement ("Ofertas válidas de 03/03 a 09/03", "Prices effective November
 * 1-7", "Angebote gültig bis", "Offres valables du"): OCR of a header joins it to a line of
 * prices, and it is never a product.
 */
const VALIDITY_STATEMENT =
  /\b(?:ofertas?|offers?|offres?|prices?|pre[çc]os|precios|angebote|preise|prezzi|promo[çc][õo]es|promociones|flyer|ad|circular|folheto|encarte|folleto|prospekt|volantino)\s+(?:v[áa]lid|valables?|effective|in effect|g[üu]ltig|validi)|\b(?:v[áa]lid[oa]s?|valid|valables?|g[üu]ltig|validi|effective|in effect)\s+(?:de|del|do|da|desde|at[ée]|hasta|apenas|para|al|du|jusqu|vom|von|bis|ab|from|until|till|through|thru|dal|fino)(?![\p{L}\p{N}])/iu;

/**
 * The same in Arabic, Persian and Hebrew ("العروض سارية من … إلى", "صالحة حتى", "معتبر از … تا",
 * "בתוקף עד"): a word of validity and one of a range, in either order (OCR gives a right-to-left
 * line's words as they stand on the page). Matched in Persian forms (ی, ک, ة as ه).
 */
const RTL_VALIDITY_WORD = /(?<!\p{L})(?:ساریه|ساری|صالحه|صالح|معتبر|اعتبار|בתוקף)(?!\p{L})/u;
const RTL_RANGE_WORD = /(?<!\p{L})(?:من|حتی|[اإ]لی|لغایه|از|تا|עד)(?!\p{L})/u;

export function isValidityStatement(text: string): boolean {
  if (VALIDITY_STATEMENT.test(text)) return true;
  const rtl = persianForms(text);
  return RTL_VALIDITY_WORD.test(rtl) && RTL_RANGE_WORD.test(rtl);
}

/** Enough letters to be a product name, not a stray symbol or number, nor a condition or price note. */
export function looksLikeName(text: string): boolean {
  const named = text
    .replace(CURRENCY_WORDS, ' ')
    .split(/[\s\u200c]+/)
    .filter((word) => !isRtlPriceWord(word))
    .join(' ');
  const letters = (named.match(/\p{L}/gu) ?? []).length;
  return (
    letters >= 3 &&
    !onlyFunctionWords(named) &&
    !NOT_A_PRODUCT.test(text) &&
    !isBadgeHeadline(text) &&
    !isPriceNote(text) &&
    !isValidityStatement(text) &&
    !onlyConditions(text)
  );
}
