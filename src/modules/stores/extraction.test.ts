import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  blackAndWhiteScan,
  compactScan,
  IMAGE_PAGE_LINES,
  imageOnlyFlyer,
  jpeg2000Flyer,
  scannedFlyer,
  rowFlyer,
  britishFlyer,
  tileFlyer,
  vectorOnlyFlyer,
  type ExpectedOffer,
} from '../../../test/support/flyers.ts';
import { startFakeLlm } from '../../../test/support/llm-fakes.ts';
import {
  cardsPdf,
  imagePagesPdf,
  photoFlyerFaceAvailable,
  photoStoryPage,
} from '../../../test/support/photo-flyers.ts';
import { createLlmProvider } from '../../providers/llm/index.ts';
import type { OcrEngine } from '../../providers/ocr/ocr.ts';
import { TesseractEngine } from '../../providers/ocr/tesseract-engine.ts';
import { UnpdfReader } from '../../providers/pdf/unpdf-reader.ts';
import { FlyerReader, type ExtractedOffer } from './extraction/flyer-reader.ts';
import { LlmPageOffers, VisionPageOffers } from './extraction/llm-pages.ts';
import { MAX_LAYOUT_ITEMS, nameLikelihood, parseLayout, type LayoutItem } from './extraction/layout.ts';
import { findPrices, findUnit, isServiceNote, looksLikeName, namesNothing } from './extraction/prices.ts';
import { fixOcrWords } from './extraction/raised-cents.ts';
import { defaultValidUntil, findValidUntil } from './extraction/validity.ts';

/** The shared data sits beside the project (../shared from its root), wherever it is cloned. */
const REAL_FLYER = path.resolve(
  import.meta.dirname,
  '../../../../shared/data/flyers/aseman-lebensmittel-berlin-2020-sonderaktion-de.pdf',
);
const uploadedAt = new Date('2030-10-10T09:00:00Z');
const ocr = new TesseractEngine();
const reader = new FlyerReader(new UnpdfReader(), ocr);

afterAll(() => ocr.close());

async function extractAll(
  bytes: Uint8Array,
  flyerReader = reader,
): Promise<Array<ExtractedOffer & { page: number }>> {
  const run = await flyerReader.open(bytes, uploadedAt);
  const out: Array<ExtractedOffer & { page: number }> = [];
  try {
    for (let page = 1; page <= run.pageCount; page += 1) {
      out.push(...(await run.extractPage(page)).map((o) => ({ ...o, page })));
    }
  } finally {
    await run.close();
  }
  return out;
}

function shape(offer: ExtractedOffer): ExpectedOffer {
  return {
    product: offer.product,
    brand: offer.brand,
    original_price: offer.originalPrice,
    discounted_price: offer.discountedPrice,
    unit: offer.unit,
  };
}

describe('price and unit recognition', () => {
  it.each([
    ['20,99 €', [20.99]],
    ['€ 2.49', [2.49]],
    ['24,- €', [24]],
    ['nur 24,-', [24]],
    // A whole amount with a dash for its cents, after a point (Swiss prices: "CHF 24.–").
    ['CHF 24.–', [24]],
    ['nur 3.– €', [3]],
    // Cents after a dash standing for no whole part (German and Swiss discounters).
    ['Bananen je kg -.99', [0.99]],
    ['–.79 statt 1.09', [0.79, 1.09]],
    ['Preis: -,89 €', [0.89]],
    ['1 kg = -.98', []],
    ['gültig vom 14.–20.8.', []],
    ['1.99$', [1.99]],
    ['$5', [5]],
    ['was 3.49 now 2.99', [3.49, 2.99]],
    ['2 for $5', [2.5]],
    ['2/$5', [2.5]],
    ['99¢', [0.99]],
    ['0¢', []],
    ['00¢', []],
    ['49 ¢ LB', [0.49]],
    // A multi-buy whose total is in cents; OCR's "4x125¢" for a pack's "4x125g" is none.
    ['2/99¢', [0.5]],
    ['3 for 89¢', [0.3]],
    ['4x125¢', []],
    // A multi-buy whose total is a whole amount with a dash for its cents.
    ['2 Für 3.-', [1.5]],
    ['3 für 10,–', [3.33]],
    // A multi-buy whose count names its pieces; a pack's content priced whole is none.
    ['2 Stück für 3 €', [1.5]],
    ['Leve 3 unidades por R$ 10,00', [3.33]],
    ['2 pcs for $5', [2.5]],
    ['Pacote com 3 unidades por R$ 10,00', [10]],
    ['Pack of 4 pcs for $5', [5]],
    // The shekel, and a Hebrew multi-buy ("2 for 10 ₪").
    ['₪ 6.90', [6.9]],
    ['2 ב- 10 ₪', [5]],
    ['Potato Chips 7.25-8 oz $3.00', [3]],
    ['3/$10.00', [3.33]],
    ['2 pour 5 €', [2.5]],
    ['3 für 11,00 €', [3.67]],
    // OCR reads a display face's ü as "ii" or drops its dots.
    ['3 fiir 11 €', [3.67]],
    ['3 fur 7 €', [2.33]],
    ['2 fir 5,00 €', [2.5]],
    // The times sign as printed, and a display face's "x" read twice.
    ['2 × 5 €', [2.5]],
    ['3 Xx 12 €', [4]],
    // The real's sign read "RS" in a multi-buy; a multi-buy whose count OCR lost is no price.
    ['Leve 4 por RS 29', [7.25]],
    ['Leve por R$ 63', []],
    ['Lleve por 5 €', []],
    // "Take it for": one price, its cents printed.
    ['Leve por R$ 4,99', [4.99]],
    ['Leve 2 por R$ 7,00', [3.5]],
    // The cents of a "from … for" price are no count ("79 por R$ 6,99" is not a multi-buy).
    ['De R$ 8,79 por R$ 6,99', [8.79, 6.99]],
    ['De 2.49 for 1.99', [2.49, 1.99]],
    ['1/2 price', []],
    ['gültig vom 12.10. bis 17.10.2020', []],
    ['10717 Berlin, Tel. 0176 63636480', []],
    ['1 Sack (10Kg)', []],
    ['Suco Maguary Seleção 1,35L', []],
    ['SAVE $4', []],
    // A big price whose raised cents OCR read as a degree sign or a quote: its cents are unknown.
    ['R$ 4º', []],
    ['$3”', []],
    ['$3 each', [3]],
    // A struck-through regular price whose point OCR read as a colon is not a whole $3.
    ['Reg.-$3:89 $3.29', [3.29]],
    ['ÉCONOMISEZ 0,50 €', []],
    ['Ahorra 1,00 €', []],
    ['Sie sparen 2,00 €', []],
    ['Save up to $1.50 Tomatoes $2.99', [2.99]],
    ['Lava roupa em pó Tixan 2,2kg R$ 18,90', [18.9]],
    ['R$ 19,95 kg', [19.95]],
    ['2,99 kg', [2.99]],
    // Reference prices are not prices; a price per kilo of a 1 kg pack or of loose goods is.
    ['Lachs 200 g (100 g = 1,25 €) 2,49 €', [2.49]],
    ['500 g 4,99 €/kg 2,49 €', [2.49]],
    ['12 oz $0.33/oz $3.99', [3.99]],
    ['Rinderhack 1 kg 9,99 €/kg', [9.99]],
    ['2,99 €/kg', [2.99]],
    ['$2.49 per lb', [2.49]],
    ['Totale al 3,99', [3.99]],
    // Arabic-script flyers: the amount before its currency word, multi-buys of pieces, in the
    // order read and in the order OCR's words stand on the page (currency first).
    ['15 درهم', [15]],
    ['2 حبة 15 درهم', [7.5]],
    ['درهم 15 حبة 2', [7.5]],
    ['2 عدد 20 €', [10]],
    ['€ 20 عدد 2', [10]],
    ['500 غرام', []],
    // Pence (British flyers): "45p", a multi-buy of pennies; a pack's "12pk" is none (were no prices).
    ['45p', [0.45]],
    ['Was 69p Now 45p', [0.69, 0.45]],
    ['2 for 90p', [0.45]],
    ['12pk £3.50', [3.5]],
    ['6pcs', []],
    ['Was—7#9p', []],
    ['(45p)', [0.45]],
    // Thousands grouped (a machine's price; pesos, printed without cents): were no prices.
    ['1.299,00 €', [1299]],
    ['R$ 1.299,90', [1299.9]],
    ['$1,299.99', [1299.99]],
    ['$ 3.499,00', [3499]],
    ['$1.290', [1290]],
    ['Antes $14.990 Ahora $12.990', [14990, 12990]],
    // Without its sign a point before three digits is no thousands' (a weight: "1.290 kg").
    ['1.290', []],
  ])('%s → %j', (text, values) => {
    expect(findPrices(text).map((p) => p.value)).toEqual(values);
  });

  it.each(['R$ 4,99 por kg', 'R$ 2,99 por 100 g', '1,99 por unidade', 'Leve 4 por R$ 18,00'])(
    'leaves "%s" unmarked: "por" before a unit is a rate, before a total a multi-buy',
    (text) => {
      expect(findPrices(text)[0]?.marked).not.toBe('old');
    },
  );

  it('marks was/now prices', () => {
    const [was, now] = findPrices('was 3.49 now 2.99');
    expect(was?.marked).toBe('old');
    expect(now?.marked).toBe('new');
    expect(findPrices('2 for $5')[0]?.multiBuy).toBe(2);
  });

  it.each([
    'without member card $3.49',
    'Sem cartão R$ 6,29',
    'De R$ 8,79 por',
    'ohne Kundenkarte 3,49 €',
    'Prix sans carte 3,49 €',
    'Au lieu de 2,99 €',
    'Sin tarjeta 2,99 €',
    'Antes 2,99 €',
    'Reg.-$0.80', // the line striking it through read as a dash
    // "De R$ 67,39 por R$ 51,99" with its "De" lost, "-por" glued to the amount or not.
    '67,39-por',
    'R$ 67,39 por R$ 51,99',
    '8,79 por 6,99',
    // A regular price's words in the issue's languages beyond "was" and "statt" (were unmarked,
    // and on a line of their own an offer named "Normalpreis"): Quebec's "Rég.", Chile's
    // "Precio normal", Italy's "Prezzo pieno", the US discounters' "Compare at".
    'Prix régulier 3,49 $',
    'Rég. 3,49 $',
    'Prix normal 3,49 €',
    'Prix habituel 3,49 €',
    'Precio normal $3.490',
    'Precio regular 3,49 €',
    'Precio anterior 3,49 €',
    'Preço normal R$ 3,49',
    'Preço habitual 3,49 €',
    'Prezzo normale € 3,49',
    'Prezzo pieno € 3,49',
    'Prezzo di listino € 3,49',
    'Normalpreis 3,49 €',
    'Originalpreis 3,49 €',
    'Usual price £3.49',
    'Compare at $4.99',
    'MSRP $4.99',
  ])('marks the price of "%s" as the regular one', (text) => {
    expect(findPrices(text)[0]?.marked).toBe('old');
  });

  it.each([
    // As typed (a text layer's string, in reading order) and as OCR places the words on the page.
    'بدون البطاقة 39.19 درهم',
    'درهم 39.19 البطاقة بدون',
    'السعر السابق 21.39 درهم',
    'درهم 21.39 السابق السعر',
    'قیمت قبلی 9,09 €',
    '€ 9,09 قبلی قیمت',
    '€ 9,09 قبلی قيست', // OCR's م read as س, and the Arabic yeh
    'بدون کارت 4,29 €',
    '€ 4,29 کارت بدون',
    'درهم 40.59 السعرالسابق', // its two words read as one, in reading order
  ])('marks the price of the Arabic-script note "%s" as the regular one', (text) => {
    expect(findPrices(text, true).map((p) => p.marked)).toEqual(['old']);
  });

  it.each(['وفر 3.00 درهم', 'درهم 3.00 وفر', 'تخفیف 2,00 €', '€ 2,00 تخفیف'])(
    'reads no price in the Arabic-script saving "%s"',
    (text) => {
      expect(findPrices(text, true)).toEqual([]);
    },
  );

  it.each(['با تخفیف 5,00 €', '€ 5,00 تخفیف با', 'درهم 15.49', 'بدون البطاقة', 'درهم 26.99 البطاقة'])(
    'reads "%s" as it is: a price with the discount, or no note beside the amount',
    (text) => {
      expect(findPrices(text, true).every((p) => p.marked === undefined)).toBe(true);
    },
  );

  it.each([
    ['1.99/kg', 'per kg'],
    ['per lb', 'per lb'],
    ['je 100 g', 'per 100 g'],
    ['1 l', '1 l'],
    ['each', 'each'],
    ['1 Sack (10Kg)', '1 Sack (10Kg)'],
    ['3 Stück', '3 Stück'],
    ['8,99 € le kg', 'per kg'],
    ['2,99 € el kg', 'per kg'],
    ['R$ 9,99 o kg', 'per kg'],
    ['R$ 19,95 kg', 'per kg'],
    ["1,30 € l'unité", 'per unité'],
    ['Kiwi gold', undefined],
    ['Lait 1 l', '1 l'],
    ['Presunto cozido Sadia cada 100g', 'per 100g'],
    ['R$ 2,75 cada', 'each'],
    ['Abacaxi Pérola Unidade', 'each'],
    ['Piña golden unidad', 'each'],
    ['Ananas Stück', 'each'],
    ['Unidades limitadas', undefined],
    ['Ovos Vermelhos Bdj. Grado C/30', 'C/30'],
    ['Cerveja Lata c/ 12 un', 'c/ 12 un'],
    ['Empanadas 2,50 c/u', 'each'],
    ['Aipim c/ Casca', undefined],
    ['Coxa C/SOBRECOXA', undefined],
    ['Yogurt magro 8 x 125 g', '8 x 125 g'],
    ['Tonno 6x70 g', '6x70 g'],
    ['Russet Potatoes 10 lb bag', '10 lb bag'],
    ['Clementines 2 lb box', '2 lb box'],
    ['Bag of 5 Avocados', undefined],
    ['Saumon fumé 4 tranches', '4 tranches'],
    ['Saumon 4 tranche', '4 tranche'],
    ['Gouda jung 10 Scheiben', '10 Scheiben'],
    ['Jamón cocido 8 lonchas', '8 lonchas'],
    ['Queijo prato 10 fatias', '10 fatias'],
    ['American Cheese 16 slices', '16 slices'],
    ['Cheese Slices', undefined],
    ['PREMIUM ROAST COFFEE KEURIG 94CT', '94CT'], // a US pack's count (berwyn drawn at 150 dpi)
    ['Large Eggs 18 ct', '18 ct'],
    ['Paper Towels 6 count', '6 count'],
    ['Count Chocula Cereal', undefined],
    ['Brezel je 49 Ct.', undefined], // German cents
    ['nur 99 ct', undefined],
  ])('unit of %s is %s', (text, unit) => {
    expect(findUnit(text)).toBe(unit);
  });
});

describe('layout parser', () => {
  const item = (text: string, x: number, y: number, size = 12): LayoutItem => ({
    text,
    x,
    y,
    width: text.length * size * 0.5,
    height: size,
  });
  /** An item with its exact box, as a text layer or OCR gives it. */
  const at = (text: string, x: number, y: number, width: number, height: number): LayoutItem => ({
    text,
    x,
    y,
    width,
    height,
  });
  /** A word OCR read, with its box and its certainty. */
  const ocrAt = (text: string, x: number, y: number, width: number, height: number): LayoutItem => ({
    ...at(text, x, y, width, height),
    confidence: 0.9,
  });
  /** An OCR item read with `confidence` (ocrAt's are read surely). */
  const unsure = (text: string, x: number, y: number, width: number, height: number, confidence: number) => ({
    ...ocrAt(text, x, y, width, height),
    confidence,
  });

  it.each([
    [
      'beside it',
      [item('Chicken Thighs', 40, 100, 14), item('$1.99/lb', 40, 120, 20), item('$4.39/kg', 140, 124, 12)],
      1.99,
      'per lb',
    ],
    [
      'under it',
      [item('Boneless Pork Loin', 40, 100, 14), item('2.99 lb', 40, 120, 24), item('6.59/kg', 40, 148, 10)],
      2.99,
      'per lb',
    ],
    ['in one item', [item('Chicken Thighs $1.99/lb ($4.39/kg)', 40, 100, 12)], 1.99, 'per lb'],
    [
      'the larger',
      [item('Pork Loin', 40, 100, 14), item('$6.59/kg', 40, 120, 24), item('$2.99/lb', 40, 148, 12)],
      6.59,
      'per kg',
    ],
  ])(
    'a price per pound and the same per kilo (%s) are one price, not an offer and its regular price',
    (_, items, price, unit) => {
      // Canadian flyers print both: 4.39/kg is 1.99/lb (a pound is 0.4536 kg). Was: regular price 4.39.
      const [offer] = parseLayout(items as LayoutItem[]);
      expect(offer).toMatchObject({ discountedPrice: price, originalPrice: price, unit });
      expect(offer!.product).not.toMatch(/[()/]/u);
    },
  );

  it.each([
    ['Coca-Cola', '1,25 l', '0,99 €', '1,25 l'],
    ['Vinho tinto', '0,75 L', 'R$ 29,90', '0,75 L'],
    ['Sekt', '0,75-l-Flasche', '2,99 €', '0,75-l-Flasche'],
  ])('"%s %s" printed is a bottle\'s size, not a price', (name, size, price, unit) => {
    // Was: 1,25 and 0,75 read as prices, the bottle "sold" at its size.
    const offers = parseLayout([item(`${name} ${size}`, 40, 100, 14), item(price, 40, 120, 30)]);
    expect(offers).toMatchObject([
      { product: name, discountedPrice: Number(price.replace(/[^\d,]/gu, '').replace(',', '.')), unit },
    ]);
  });

  it.each(['1,29 €/100 g', '1,29 € je 100 g'])(
    'a deli\'s price per 100 g ("%s") alone is the offer\'s price',
    (price) => {
      // Was: blanked as a reference price, the offer lost.
      const offers = parseLayout([item('Hinterkochschinken', 40, 100, 14), item(price, 40, 120, 28)]);
      expect(offers).toMatchObject([
        { product: 'Hinterkochschinken', discountedPrice: 1.29, unit: 'per 100 g' },
      ]);
    },
  );

  it.each([
    [
      'its pack',
      [item('Lachsfilet 200 g', 40, 100, 14), item('2,49 €', 40, 120, 20), item('1,25 €/100 g', 40, 146, 12)],
      2.49,
    ],
    ['one item', [item('Joghurt 0,79 € (0,16 €/100 g)', 40, 100, 12)], 0.79],
    [
      'a small pack',
      [item('Safran 1 g', 40, 100, 14), item('4,99 €', 40, 120, 28), item('499,00 €/100 g', 40, 152, 20)],
      4.99,
    ],
  ])(
    "a price per 100 g beside the pack's price (%s) is its reference, neither the offer nor its regular price",
    (_, items, price) => {
      const offers = parseLayout(items as LayoutItem[]);
      expect(offers).toMatchObject([{ discountedPrice: price, originalPrice: price }]);
    },
  );

  it('a price per hectogram ("all\'etto") and the same per kilo are one price', () => {
    const offers = parseLayout([
      item('Prosciutto crudo', 40, 100, 14),
      item("€ 1,99 all'etto", 40, 120, 28),
      item('€ 19,90 al kg', 40, 152, 10),
    ]);
    expect(offers).toMatchObject([
      { product: 'Prosciutto crudo', discountedPrice: 1.99, originalPrice: 1.99, unit: 'per 100 g' },
    ]);
  });

  it.each([
    // Was: an offer named "Ahora", the tile's name lost.
    ['Aceite de oliva 1 L', ['Antes 6,99 €', 'Ahora 5,49 €'], 'Aceite de oliva', 5.49, 6.99],
    // Was: an offer named "PVP" (the recommended retail price).
    ['Leche entera 1 L', ['0,89 €/ud', 'PVP 1,05 €'], 'Leche entera', 0.89, 1.05],
    // Was: "Lessive liquide Avec la carte".
    ['Lessive liquide', ['Avec la carte', '5,99 €', 'Prix sans carte 7,99 €'], 'Lessive liquide', 5.99, 7.99],
    ['Detergente', ['Com o cartão', 'R$ 9,99', 'Sem cartão R$ 12,49'], 'Detergente', 9.99, 12.49],
    // Was: "Biscotti frollini 1+1 gratis".
    ['Biscotti frollini 700 g', ['1+1 gratis', '€ 2,49'], 'Biscotti frollini', 2.49, 2.49],
    // Was: "Non-member" an offer of its own at 2.49, and "Coca-Cola Member" (the badge's "price" taken as a frame word).
    ['Coca-Cola 2L', ['Member price', '$1.99', 'Non-member $2.49'], 'Coca-Cola', 1.99, 2.49],
    // Was: "Cereal Buy 1 Get 1 Free".
    ['Cereal', ['Buy 1 Get 1 Free', '$5.99'], 'Cereal', 5.99, 5.99],
    // Was: an offer of its own named after the regular price's words.
    ['Lait 2 %', ['4,99 $', 'Rég. 5,79 $'], 'Lait 2 %', 4.99, 5.79],
    ['Passata', ['€ 2,49', 'Prezzo normale € 3,49'], 'Passata', 2.49, 3.49],
    ['Vollmilch', ['2,49 €', 'Normalpreis 3,49 €'], 'Vollmilch', 2.49, 3.49],
    ['Arroz grado 1', ['$1.290', 'Precio normal $1.590'], 'Arroz grado 1', 1290, 1590],
    ['Baked Beans', ['£2.49', 'Usual price £3.49'], 'Baked Beans', 2.49, 3.49],
    ['Paper Towels', ['$3.99', 'Compare at $6.49'], 'Paper Towels', 3.99, 6.49],
    // The words that caption the offer's price are no name (were offers named "Precio oferta",
    // "Preço promocional R", "Prix promo", "Our", "Angebotspreis", "Seulement", "From", "Dal").
    ['Arroz grado 1', ['Precio oferta $1.290', 'Precio normal $1.590'], 'Arroz grado 1', 1290, 1590],
    ['Feijão carioca', ['Preço promocional R$ 6,49'], 'Feijão carioca', 6.49, 6.49],
    ['Feijão carioca', ['Por apenas R$ 6,49'], 'Feijão carioca', 6.49, 6.49],
    ['Lait 2 %', ['Prix promo 4,99 $'], 'Lait 2 %', 4.99, 4.99],
    ['Lait 2 %', ['Seulement 4,99 $'], 'Lait 2 %', 4.99, 4.99],
    ['Lait 2 %', ['Dès 4,99 $'], 'Lait 2 %', 4.99, 4.99],
    ['Passata', ['Prezzo offerta € 0,89'], 'Passata', 0.89, 0.89],
    ['Passata', ['Dal € 0,89'], 'Passata', 0.89, 0.89],
    ['Vollmilch', ['Angebotspreis 0,99 €'], 'Vollmilch', 0.99, 0.99],
    ['Baked Beans', ['Our price £0.89'], 'Baked Beans', 0.89, 0.89],
    ['Paper Towels', ['From $3.99'], 'Paper Towels', 3.99, 3.99],
    ['Aceite de oliva', ['Desde 5,49 €'], 'Aceite de oliva', 5.49, 5.49],
    ['Aceite de oliva', ['Sólo 5,49 €'], 'Aceite de oliva', 5.49, 5.49],
    ['Baked Beans', ['Any 3 for £2'], 'Baked Beans', 0.67, 0.67],
    // Was: "with digital coupon" an offer of its own at 4.49.
    ['Cheerios 18 oz', ['$2.99', 'with digital coupon', '$4.49 without'], 'Cheerios', 2.99, 4.49],
    // British loyalty schemes' prices. Was: an offer named "Clubcard" (or "Nectar") at 3.00, the
    // regular price lost (or an offer of its own).
    [
      'Cathedral City Cheddar',
      ['Clubcard Price', '£3.00', 'Regular Price £4.25'],
      'Cathedral City Cheddar',
      3,
      4.25,
    ],
    [
      'Cathedral City Cheddar',
      ['Nectar Price', '£3.00', 'Without Nectar £4.25'],
      'Cathedral City Cheddar',
      3,
      4.25,
    ],
    [
      'Lurpak Spreadable',
      ['Lidl Plus Price', '£3.49', 'Without Lidl Plus £4.49'],
      'Lurpak Spreadable',
      3.49,
      4.49,
    ],
  ])('the notes around "%s"\'s price are no part of its name', (name, lines, product, price, regular) => {
    const offers = parseLayout([
      item(name, 40, 100, 14),
      ...lines.map((line, i) =>
        item(line, 40, 118 + i * 16, /\d/u.test(line) && i === lines.length - 1 ? 12 : 10),
      ),
    ]);
    expect(offers).toMatchObject([{ product, discountedPrice: price, originalPrice: regular }]);
  });

  it.each([
    'Aktionspreis',
    'Preis-Hit',
    'Super-Angebot',
    'Super Oferta',
    'Promoção',
    'Prix choc',
    'Sottocosto',
    'Weekly Special',
    'Rollback',
    'Preço baixo',
  ])('a promotion\'s headline "%s" over a price is no part of the tile\'s name', (headline) => {
    // Was: "Gouda jung Aktionspreis", "Gouda jung -Hit".
    const offers = parseLayout([
      item('Gouda jung 400 g', 40, 100, 14),
      item(headline, 40, 118, 11),
      item('1,99 €', 40, 134, 28),
    ]);
    expect(offers).toMatchObject([{ product: 'Gouda jung', discountedPrice: 1.99 }]);
  });

  it('a name that opens with a price note\'s word ("Regular Coffee") is still a name', () => {
    const offers = parseLayout([item('Regular Coffee 12 oz', 40, 100, 14), item('$4.99', 40, 120, 28)]);
    expect(offers).toMatchObject([{ discountedPrice: 4.99 }]);
    expect(offers[0]!.product).toContain('Coffee');
  });

  it.each(['Bio', 'Neu', 'Frisch'])(
    'a word over a price that may be the name\'s ("%s") stays in it',
    (word) => {
      const offers = parseLayout([
        item('Gouda jung 400 g', 40, 100, 14),
        item(word, 40, 118, 11),
        item('1,99 €', 40, 134, 28),
      ]);
      expect(offers[0]!.product).toBe(`Gouda jung ${word}`);
    },
  );

  it('a Hebrew tile: its regular price after "במקום" (instead of), its size in litres', () => {
    // Was: an offer named "במקום" at 49.90, and "1 ליטר" part of the name.
    const offers = parseLayout([
      item('שמן זית כתית', 100, 100, 14),
      item('1 ליטר', 100, 118, 10),
      item('₪ 39.90', 100, 134, 28),
      item('במקום ₪ 49.90', 100, 166, 10),
    ]);
    expect(offers).toMatchObject([
      { product: 'שמן זית כתית', discountedPrice: 39.9, originalPrice: 49.9, unit: '1 ליטר' },
    ]);
  });

  it.each(['לק"ג', 'לק״ג', 'ל-ק"ג'])(
    'a Hebrew price per kilo ("₪ 10.90 %s") is a rate, not a name',
    (rate) => {
      // Was: an offer named "לק"ג" (ל, per, glued to ק"ג, kilogram), the tile's name lost.
      const offers = parseLayout([item('חזה עוף טרי', 100, 100, 14), item(`₪ 10.90 ${rate}`, 100, 120, 28)]);
      expect(offers).toMatchObject([{ product: 'חזה עוף טרי', discountedPrice: 10.9 }]);
      expect(offers[0]!.unit).toMatch(/^per ק["״]ג$/u);
    },
  );

  it('a currency\'s code over a price ("CHF 1.60") names nothing', () => {
    // Was: an offer named "CHF".
    const offers = parseLayout([item('Milch 1 l', 40, 100, 14), item('CHF 1.60', 40, 120, 28)]);
    expect(offers).toMatchObject([{ product: 'Milch', discountedPrice: 1.6 }]);
  });

  it('a discount badge beside a name ("-34%") is no part of it', () => {
    const offers = parseLayout([
      item('Café moulu 250 g', 40, 100, 14),
      item('-34%', 160, 90, 20),
      item('1,99 €', 40, 120, 28),
    ]);
    expect(offers).toMatchObject([{ product: 'Café moulu', discountedPrice: 1.99 }]);
  });

  it('a per-kilo price that is not the per-pound one converted stays the regular price', () => {
    const [offer] = parseLayout([
      item('Chicken Thighs', 40, 100, 14),
      item('$1.99/lb', 40, 120, 20),
      item('$5.49/kg', 140, 124, 12),
    ]);
    expect(offer).toMatchObject({ discountedPrice: 1.99, originalPrice: 5.49 });
  });

  it('reads "50¢" whose second, partial reading "0¢" OCR gave inside it as 0.50, never 0.00', () => {
    // A generated US tile: "Bananas", "50¢ /lb", the "0¢" read again within the price's box.
    const offers = parseLayout([
      ocrAt('Bananas', 21, 196, 51, 11),
      ocrAt('0¢', 46, 230, 30, 34),
      ocrAt('50¢', 20, 231, 55, 33),
      unsure('/lb', 83, 254, 15, 12, 0.2),
    ]);
    expect(offers).toMatchObject([{ product: 'Bananas', discountedPrice: 0.5 }]);
  });

  it('lists no service note as an offer: free delivery from an amount is a minimum order', () => {
    // The real Persian flyer drawn to JPEG: its footer's note and amount read as a tile.
    const note = parseLayout([
      ocrAt('Kostenlose Lieferung innerhalb Berlins', 20, 800, 300, 14),
      ocrAt('ab', 20, 820, 20, 14),
      ocrAt('100,00 €', 45, 820, 70, 14),
    ]);
    expect(note).toEqual([]);
  });

  it('drops the quotes OCR glues before an OCR name word ("„“Eingelegtes")', () => {
    const offers = parseLayout([
      ocrAt('„“Eingelegtes', 21, 537, 80, 12),
      ocrAt('Gemüse', 105, 537, 50, 12),
      ocrAt('5,49', 21, 560, 60, 30),
    ]);
    expect(offers).toMatchObject([{ product: 'Eingelegtes Gemüse', discountedPrice: 5.49 }]);
  });

  it('lists no offer whose whole name is words that name nothing ("R por" of a lost "De R$ … por")', () => {
    // A generated Brazilian tile: the name lost, the former price's words left above the price.
    const tile = (note: string) =>
      parseLayout([
        ocrAt(note, 21, 537, 40, 11),
        ocrAt('R$', 21, 559, 20, 20),
        ocrAt('6.39', 46, 575, 64, 34),
      ]);
    expect(tile('R por')).toEqual([]);
    expect(tile('Figo')).toMatchObject([{ product: 'Figo', discountedPrice: 6.39 }]);
  });

  it('splits two offers on one line and joins a currency sign printed as its own item', () => {
    const offers = parseLayout([
      item('Äpfel', 40, 100),
      item('€', 150, 100),
      item('2.49', 158, 100),
      item('Birnen', 300, 100),
      item('statt 3,29', 400, 100),
      item('2,79 €', 480, 100),
    ]);
    expect(offers.map((o) => [o.product, o.originalPrice, o.discountedPrice])).toEqual([
      ['Äpfel', 2.49, 2.49],
      ['Birnen', 3.29, 2.79],
    ]);
  });

  it('reads a price once where OCR also read its whole part alone, within it', () => {
    // A card badge's "17,90" (the price recogniser) over the page reading's "17" (savegnago drawn at
    // 150 dpi): joined they were 1717.90.
    const offers = parseLayout([
      unsure('em', 742, 455, 11, 13.9, 0.94),
      unsure('Achocolatado', 695, 459, 57, 8.6, 0.92),
      unsure('pó', 695, 466, 8, 6.8, 0.96),
      unsure('Toddy', 705, 466, 20, 6.8, 0.93),
      unsure('750g', 727, 467, 15, 6.4, 0.91),
      unsure('17', 699, 544, 21, 10.6, 0.84),
      unsure('17,90', 699, 544, 44, 17.8, 0.83),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.unit])).toEqual([
      ['Achocolatado em pó Toddy', 17.9, '750g'],
    ]);
  });

  it("never names a price after OCR's words it all but failed to read, whatever their letters", () => {
    // A photo's texture beside a tile's price, read "pFEZRIT" at 0.00 (savegnago drawn at 150 dpi):
    // it named the price, and the tile's own name went without one.
    const offers = parseLayout([
      unsure('Macarrão', 682, 730, 30, 4.8, 0.88),
      unsure('semolado', 715, 729, 31, 5.3, 0.91),
      unsure('Galo', 682, 734, 15, 13.4, 0.85),
      unsure('pFEZRIT', 431, 757, 41, 13.9, 0),
      unsure('2,99', 689, 748, 60, 32.6, 0.95),
      unsure('R$', 678, 754, 10, 8.6, 0.86),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['Galo', 2.99]]);
  });

  it('reads a price per kilo OCR boxed inside the big price as a reference price apart, not glued on', () => {
    // volantino drawn at 150 dpi: "€ 8,69 al kg" sits under the raised cents of "7,39", inside its
    // box; read as one cell, "7,398,69", neither was a price and the tile was lost.
    const offers = parseLayout([
      unsure('Galbani', 601, 229, 33, 9, 0.94),
      unsure('Galbanino', 584, 237, 45, 11, 0.9),
      unsure('7,39', 546, 257, 135, 65, 0.87),
      unsure('8,69 alkg', 622, 299, 54, 18, 0.96),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice, o.unit])).toEqual([
      ['Galbani Galbanino', 7.39, 7.39, ''],
    ]);
  });

  it('takes a small price per kilo beside the pack price for a reference, never the regular price', () => {
    const [offer] = parseLayout([
      at('Galbanino', 40, 100, 60, 12),
      at('7,39', 40, 120, 80, 40),
      at('€ 8,69 al kg', 40, 165, 60, 10),
    ]);
    expect([offer!.discountedPrice, offer!.originalPrice, offer!.unit]).toEqual([7.39, 7.39, '']);
    // Printed as big as the pack price, a price per kilo is the tile's other price.
    const [both] = parseLayout([
      at('Galbanino', 40, 100, 60, 12),
      at('7,39', 40, 120, 80, 40),
      at('8,69 al kg', 140, 120, 80, 40),
    ]);
    expect(both!.originalPrice).toBe(8.69);
    // A small price each is no price per kilo: the tile's other price still.
    const [each] = parseLayout([
      at('Galbanino', 40, 100, 60, 12),
      at('7,39', 40, 120, 80, 40),
      at('8,69 each', 40, 165, 60, 10),
    ]);
    expect(each!.originalPrice).toBe(8.69);
  });

  it("names a price alone on its line after the tile's name over it, not OCR's failed reading between", () => {
    // berwyn drawn at 150 dpi: the "DOZ" over "$1.99", on a floral border, read "ilicozM" at 0.00;
    // it named the price alone, "JUMBO EGGS" above it left out.
    const offers = parseLayout([
      unsure('JUMBO', 495, 712, 56, 11, 0.96),
      unsure('EGGS', 558, 712, 42, 11, 0.96),
      unsure('ilicozM', 522, 727, 49, 14, 0),
      unsure('$1.99', 480, 746, 112, 33, 0.91),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['JUMBO EGGS', 1.99]]);
  });

  it('reads no price of a whole amount whose raised cents OCR read as an ordinal sign', () => {
    // "R$ 4²⁹" read "R$" "4º" (the OCR of a generated page): 4.00 would be a wrong price.
    const offers = parseLayout([
      unsure('Leite', 405, 521, 29, 12, 0.96),
      unsure('Integral', 439, 521, 46, 14, 0.96),
      unsure('R$', 405, 568, 20, 24, 0.95),
      unsure('4º', 429, 568, 47, 40, 0.5),
    ]);
    expect(offers).toEqual([]);
  });

  it('reads member and regular-price notes as the regular price, never as the name', () => {
    const tile = (x: number, note: string, price: string) => [
      item('Macarrão Espaguete', x, 100, 14),
      item('500 g', x, 120, 10),
      item(note, x, 140, 10),
      item(price, x, 190, 40),
    ];
    const offers = parseLayout([
      ...tile(40, 'Sem cartão R$ 6,49', 'R$ 5,29'),
      ...tile(400, 'without member card $3.49', '$2.99'),
      ...tile(760, 'ohne Kundenkarte 3,49 €', '2,99 €'),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['Macarrão Espaguete', 5.29, 6.49],
      ['Macarrão Espaguete', 2.99, 3.49],
      ['Macarrão Espaguete', 2.99, 3.49],
    ]);
  });

  it('reads a display price OCR split at its comma, the comma read as a letter at the foot', () => {
    // Generated es-ES, a condensed face: "7,49 €" read "7" "J" "49" "€", "11,79 €" as "1" "1" "J" "79" "€".
    const offers = parseLayout([
      ocrAt('Pechuga', 21, 217, 52, 14),
      ocrAt('de', 77, 217, 14, 12),
      ocrAt('pollo', 96, 217, 29, 14),
      ocrAt('7', 21, 297, 15, 25),
      ocrAt('49', 47, 297, 32, 25),
      ocrAt('€', 91, 297, 12, 25),
      unsure('J', 38.4, 317, 6, 10, 0.45),
      ocrAt('Merluza', 213, 217, 48, 12),
      ocrAt('fresca', 266, 217, 37, 12),
      ocrAt('1', 215, 297, 9, 25),
      ocrAt('1', 232, 297, 10, 25),
      ocrAt('79', 257, 297, 32, 25),
      ocrAt('€', 300, 297, 12, 25),
      unsure('J', 248.3, 317, 6, 10, 0.25),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
      ['Pechuga de pollo', 7.49],
      ['Merluza fresca', 11.79],
    ]);
  });

  it('joins a whole amount OCR split after its "1", whose figure stands apart in its room ("$1" "0" of "3 for $10")', () => {
    const offers = parseLayout([
      ocrAt('Russet', 21, 196, 41, 11),
      ocrAt('Potatoes', 67, 196, 53, 11),
      ocrAt('3', 21, 241, 14, 24),
      ocrAt('for', 46, 239, 37, 26),
      unsure('$1', 93, 237, 27, 31, 0.69),
      ocrAt('0', 127, 241, 14, 24),
      ocrAt('Broccoli', 213, 196, 49, 12),
      ocrAt('$1', 213, 237, 27, 31),
      ocrAt('99', 242, 237, 16, 15), // raised cents: 1.99, never 199
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
      ['Russet Potatoes', 3.33],
      ['Broccoli', 1.99],
    ]);
  });

  it('reads a mark away from the foot of the digits, or between numbers of other sizes, as it is', () => {
    const offers = parseLayout([
      ocrAt('Pechuga', 21, 217, 52, 14),
      ocrAt('7', 21, 297, 15, 25),
      unsure('J', 38, 297, 6, 10, 0.45), // at the digits' top: no comma
      ocrAt('49', 47, 297, 32, 25),
      ocrAt('€', 91, 297, 12, 25),
      ocrAt('Merluza', 213, 217, 48, 12),
      ocrAt('1', 232, 297, 10, 25),
      unsure('J', 248, 317, 6, 10, 0.25),
      ocrAt('79', 257, 305, 16, 12), // raised cents would be level with the top; these are small and low
      ocrAt('€', 300, 297, 12, 25),
    ]);
    expect(offers.map((o) => o.discountedPrice)).not.toContain(7.49);
    expect(offers.map((o) => o.discountedPrice)).not.toContain(1.79);
  });

  it('reads a struck price whose strike OCR read as dashes as no price ("Reg.-$6-86" of "Reg. $0.80")', () => {
    expect(findPrices('Reg.-$6-86', true)).toEqual([]);
    expect(findPrices('$3.49 - $4.99', true).map((p) => p.value)).toEqual([3.49, 4.99]);
  });

  it('reads "$1⁹⁵" that OCR read "1¢" and raised "95" as 1.95, not 0.01', () => {
    // Generated en-CA: the raised cents' edge taken for a cent sign.
    const offers = parseLayout([
      ocrAt('Pasta', 309, 178, 33, 11),
      ocrAt('Spaghetti', 347, 177, 58, 14),
      ocrAt('900', 309, 197, 18, 8),
      ocrAt('g', 331, 199, 5, 9),
      ocrAt('1¢', 321, 231, 28, 33),
      ocrAt('95', 344, 230, 19, 15),
      ocrAt('Cucumbers', 21, 361, 68, 18),
      ocrAt('50¢', 23, 404, 40, 33),
      ocrAt('ea.', 83, 429, 16, 8),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
      ['Pasta Spaghetti', 1.95],
      ['Cucumbers', 0.5],
    ]);
  });

  it('reads "101b bag" (OCR\'s "1b" for "lb") as the pack size, not as the name over the price', () => {
    const offers = parseLayout([
      ocrAt('Russet', 309, 694, 41, 11),
      ocrAt('Potatoes', 357, 695, 51, 10),
      ocrAt('101b', 309, 714, 24, 8),
      ocrAt('bag', 337, 714, 18, 11),
      ocrAt('3.38', 309, 732, 54, 32),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.unit])).toEqual([
      ['Russet Potatoes', 3.38, '10lb bag'],
    ]);
  });

  it("drops letters OCR read within a price's box, the price's ink read again, which would name it", () => {
    // Generated ar-AE: the Arabic-script reader's "حت" over the digit reader's "29.49".
    const offers = parseLayout([
      ocrAt('زيت', 162, 677, 28, 13),
      ocrAt('زيتون', 121, 677, 36, 13),
      ocrAt('لتر', 171, 696, 20, 11),
      unsure('السعرالسابق', 116, 714, 75, 14, 0.7),
      unsure('40.59', 86, 714, 26, 9, 0.67),
      ocrAt('درهم', 56, 716, 26, 12),
      unsure('حت', 128, 757, 61, 24, 0.79),
      ocrAt('29.49', 109, 757, 80, 24),
      unsure('۲د', 82, 757, 43, 24, 0.88),
      unsure('يخم', 24, 759, 55, 67, 0.31), // "درهم" under a photo's shape
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['زيت زيتون', 29.49, 40.59],
    ]);
  });

  it('lists no Arabic tile whose only price read is its price without the card', () => {
    // Generated ar-AE: the big "٢٦.٩٩ درهم" lay under a photo's shape; OCR read its cents alone.
    const offers = parseLayout([
      ocrAt('زيت', 546, 218, 28, 13),
      ocrAt('زيتون', 505, 218, 36, 13),
      ocrAt('البطاقة', 512, 254, 35, 12),
      ocrAt('39.19', 482, 256, 26, 8),
      ocrAt('درهم', 454, 257, 24, 11),
      ocrAt('بدون', 551, 258, 24, 9),
      ocrAt('99', 445, 298, 35, 24),
    ]);
    expect(offers).toEqual([]);
  });

  it("keeps an Arabic tile's price when a saving badge of the tile under it is read", () => {
    // "وفر ٣.٠٠ درهم" (save 3.00) is set on the next tile's photo, between the two prices.
    const offers = parseLayout([
      ocrAt('دجاج', 254, 540, 32, 17),
      ocrAt('طازج', 217, 540, 32, 17),
      ocrAt('درهم', 22, 566, 76, 59),
      ocrAt('15.49', 109, 585, 73, 24),
      ocrAt('كيلو', 190, 592, 24, 20),
      ocrAt('وفر', 92, 650, 21, 22),
      ocrAt('3.00', 66, 650, 21, 22),
      ocrAt('درهم', 29, 652, 84, 20),
      ocrAt('عدس', 249, 715, 37, 11),
      ocrAt('8.29', 108, 757, 67, 24),
      ocrAt('درهم', 22, 759, 76, 37),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['دجاج طازج', 15.49, 15.49],
      ['عدس', 8.29, 8.29],
    ]);
  });

  it('reads the per-unit price of a multi-buy condition printed beside a tile as its offer price', () => {
    // Savegnago: "Buy 3, pay 2: in this promotion a unit comes out at R$ 5,99" under the regular price.
    const offers = parseLayout([
      at('Queijo parmesão Vigor', 366, 380, 75, 8),
      at('ralado 50g', 366, 388, 34, 8),
      at('R$ 8,98', 366, 400, 60, 29),
      at('Levando 3 unidades', 366, 451, 53, 6),
      at('Pague 2 . Nesta', 366, 457, 42, 6),
      at('promoção a', 366, 463, 32, 6),
      at('unidade sai por', 366, 468, 41, 6),
      at('R$ 5,99', 366, 472, 38, 17),
      at('cada', 395, 490, 12, 6),
    ]);
    expect(offers.map((o) => [o.brand, o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['', 'Queijo parmesão Vigor ralado', 5.99, 8.98],
    ]);
  });

  it.each([
    '4 für',
    '4 fu r',
    '3 fiir',
    '3 for',
    'Leve',
    'Leve (',
    '1a unidad',
    '2ª unidade',
    'درهم البطاقة بدون',
    '© کارت بدون',
    'قیمت قبلی',
    '© قبلی قیست',
    'السعر السابق',
    'اسع السابق', // its first word struck through, as OCR reads it
    'بدلاً من',
    'cartão R',
    'Kundenkarte',
    'Prix',
    'sans',
    'Preço ',
    // The quantity a multi-buy starts at, its words OCR read as lines apart (savegnago drawn at 150 dpi).
    'COMPRE',
    'A PARTIR DE',
    'PARTIR DE',
    'Compre a partir de 3 unid.',
    'Comprando 2 unidades',
    'À partir de 2',
    'Ab 3 Stück',
  ])('a multi-buy condition, card or former-price note "%s" is never a product name', (text) => {
    expect(looksLikeName(text)).toBe(false);
  });

  it.each([
    'Limite de 6 unid. por cliente/compra',
    'Máximo 3 por cliente',
    // Brazil's legal note, read by OCR from a beer tile drawn at 150 dpi (savegnago).
    'PROMOÇÃO LIMITE EXELUANVA DE PARA CLIENTE POR CPE',
    'Promoção limitada a 48 unidades por CPF',
  ])('a purchase limit "%s" is never a product name', (text) => {
    expect(looksLikeName(text)).toBe(false);
  });

  it.each(['این', 'آن', 'هذا', 'إلى'])(
    '"%s", an Arabic-script word that names nothing, is no product name',
    (text) => {
      // What OCR kept of a name it lost ("این" of "برنج ایرانی").
      expect(looksLikeName(text)).toBe(false);
    },
  );

  it.each([
    'R por',
    'fir',
    '2 pour 5 Ë',
    'de la',
    'Per the',
    'unidades',
    'com 10 unidades',
    'cada 100g',
    'le pièce',
  ])('"%s", Latin-script words that name nothing, is no product\'s whole name', (text) => {
    // What OCR kept of a price's words: "De R$ … por", "für", a multi-buy.
    expect(namesNothing(text)).toBe(true);
  });

  it.each([
    'Limie de 20',
    'Limite de 6 unid. por cliente',
    'GANHE PAGUE',
    'pegue',
    'Fague',
    'COMPRE PARTIR DE',
    'Nesta',
    'Ofertas válidas nesta embalagem',
    'NO NOSSO CARTÃO',
  ])('"%s", the words of a price\'s conditions (some read a letter off), is no product\'s name', (text) => {
    // A card badge's or a limit's small print read as a line of its own stood as a tile's name.
    expect(namesNothing(text)).toBe(true);
  });

  it.each(['Nestea', 'Carne', 'Rosso', 'Massa Leve', 'Cartola', 'Pão de forma'])(
    '"%s", a letter from a condition\'s word or beside one, is still a name',
    (text) => {
      expect(namesNothing(text)).toBe(false);
    },
  );

  it.each([
    'Kostenlose Lieferung innerhalb Berlins',
    'Free delivery on orders over',
    'Entrega grátis',
    'Livraison offerte',
    'versandkostenfrei',
  ])('"%s" is a service note, no product', (text) => {
    expect(isServiceNote(text)).toBe(true);
  });

  it.each(['Lieferando Pizza Margherita', 'Pão de forma', 'Deliciosa'])('"%s" is no service note', (text) => {
    expect(isServiceNote(text)).toBe(false);
  });

  it.each([
    'Pan de molde',
    'Filet de poulet',
    'Pommes de terre',
    'Figo',
    'R$',
    'Ovos 12 unidades',
    'Pack Ananas',
  ])('"%s" is not only words that name nothing', (text) => {
    expect(namesNothing(text)).toBe(false);
  });

  it.each(['برنج ایرانی', 'این برنج', 'نان', 'زيت زيتون'])('"%s" stays a name', (text) => {
    expect(looksLikeName(text)).toBe(true);
  });

  it.each([
    'Supermercado La Plaza Ofertas válidas del 19 al 25 de marzo de 2026',
    'Mercado Central Ofertas validas de a oo A',
    'Prices effective November 1-7',
    'Angebote gültig bis Samstag',
    'Offres valables du 3 au 9 mars',
    'Válido apenas para o dia 17 de Junho',
    // "até" ends in an accented letter, where JavaScript's ASCII-only \b saw no word's end.
    'As ofertas deste box são validas até sábado', // savegnago drawn at 100 dpi, read by OCR
    'Ofertas válidas até 25/04',
    'Maple Discount Foods Flyer in effect August 3-9, 2026 Extra Lean',
    // Right-to-left lines as OCR gives them (words in their places on the page) or as typed.
    'هايبرماركت الواحة إلى من سارية العروض',
    'العروض سارية حتى نهاية الأسبوع',
    'فروشگاه آسمان تا از معتبر',
    'قیمت‌ها معتبر تا پایان هفته',
    'המבצע בתוקף עד סוף השבוע',
  ])('a validity statement "%s" is never a product name', (text) => {
    expect(looksLikeName(text)).toBe(false);
  });

  it.each([
    'Exclusividade Cliente Clube',
    'Exclusividage Cliente Clube', // as OCR read it
    'Exclusividade COllente Clube',
    '“Exclusividade Cliente', // a quote from the badge's ornament read first (spn drawn at 100 dpi)
    'Exclusivo para sócios',
    'É xéluslvidáne Cliente Chibé', // "Exclusividade Cliente Clube" as OCR read it (spn drawn at 150 dpi)
    'Only 2 per customer',
    'Max. 3 pro Kunde',
    'PROMOÇÃO EXCLUSIVA PARA CLIENTE SAVÉ GANHE?', // over a beer tile's app price (savegnago at 150 dpi)
    'Exclusive for members',
    'Member price',
    'Members only',
    'Preço Clube',
    'Prix adhérent',
    'Prix fidélité',
    'Prix fidélité 2,99 €',
    'Precio socio',
    'Mitgliederpreis',
    'Clubcard Price',
    'Clubcard Prices',
    'Nectar Price',
    'More Card Price',
    'Lidl Plus Deal',
  ])('a member or club price badge "%s" is never a product name', (text) => {
    expect(looksLikeName(text)).toBe(false);
  });

  it.each([
    'Valdostana Pasta',
    'Club Soda',
    'Club Mate Original',
    'Exclusive Blend Coffee',
    'Preço Bom Feijão',
    'Effective Cleaner Lemon',
    'Prix Garantie Butter',
    'Valid Ham',
    'Carte d’Or Vanille',
    'Sans gluten',
    'Sem lactose',
    'عصير من البرتقال',
    'معتبر',
  ])('"%s" is still a product name', (text) => {
    expect(looksLikeName(text)).toBe(true);
  });

  it.each([
    'درهم وفر',
    'السابق السعر',
    'درهم 9 درهم',
    'درهم 335 رهم',
    'اگرم',
    'اکرم', // "۱ گرم" with its ١ read as alef and گ as ک
    'اكغ',
    'التر',
    'تخفیف',
    'بدون',
    'بسته',
    'قیست\u200cقبلی',
    '1 كيلو',
    'عبوة',
    'لثر', // لتر (litre) with its dots misread
    'آكغ', // "١ كغ", the ١ read as alef madda
  ])(
    'an Arabic-script line of currency, unit and price words "%s" (OCR\'s readings too) is no name',
    (text) => {
      expect(looksLikeName(text)).toBe(false);
    },
  );

  it.each(['پسته', 'زعفران اگرم', 'نان بربری', 'دجاج طازج', 'حليب طازج 2 لتر', 'خيار', 'شیر', 'پنیر لیقوان'])(
    'an Arabic-script name with a food in it, "%s", is still a name',
    (text) => {
      expect(looksLikeName(text)).toBe(true);
    },
  );

  it("takes a club badge's price under a regular price as the offer's, not the badge as its name", () => {
    // A Canva card as OCR reads it (two cards side by side): name, regular price, badge, price.
    const card = (x: number, name: string, regular: string, badge: string, price: string) => [
      ocrAt(name, x, 949, 72, 53),
      ocrAt(regular, x + 13, 1130, 113, 68),
      ocrAt('Exclusividade', x + 12, 1210, 106, 12),
      ocrAt(badge, x + 124, 1210, 56, 12),
      ocrAt('Clube', x + 186, 1210, 44, 12),
      ocrAt(price, x + 30, 1230, 195, 94),
    ];
    const offers = parseLayout([
      ...card(131, 'THOMPSON', '14,99', 'Cliente', '9,99'),
      ...card(863, 'TOMY', '7,99', 'COllente', '4,99'),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['THOMPSON', 9.99, 14.99],
      ['TOMY', 4.99, 7.99],
    ]);
  });

  it("gives a card badge's price under its headline to the tile over it, never the headline as a name", () => {
    // Two savegnago tiles side by side as OCR read them at 150 dpi: name, regular price, then a
    // "DESCONTO EXCLUSIVO" badge over the price paid with the shop's card.
    const tile = (x: number, name: string, regular: string, card: string) => [
      ocrAt(name, x + 16, 624, 60, 7),
      ocrAt(regular, x + 12, 641, 66, 20),
      ocrAt('DESCONTO', x, 669, 39, 8),
      ocrAt('EXCLUSIVO', x + 42, 669, 44, 8),
      ocrAt(card, x + 50, 682, 48, 24),
    ];
    const offers = parseLayout([
      ...tile(87, 'Lysoform', '29,90', '26,90'),
      ...tile(287, 'Downy', '19,90', '16,90'),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['Lysoform', 26.9, 29.9],
      ['Downy', 16.9, 19.9],
    ]);
  });

  it.each([
    'DESCONTO EXCLUSIVO',
    "'DESCONTO", // as OCR read it (savegnago drawn at 150 dpi)
    'Desconto exclusivo no nosso cartão',
    'Sconto 30 %',
    'Rabatt mit Karte',
    'Remise immédiate',
  ])('a card badge\'s headline "%s" is never a product name', (text) => {
    expect(looksLikeName(text)).toBe(false);
  });

  it("gives an OCR price the name right over it, not a staggered neighbour's name level with it", () => {
    // A savegnago grid at 150 dpi: the left tile's name stands level with the right tile's price,
    // whose own name is just over it; the left tile's price is under its name.
    const offers = parseLayout([
      ocrAt('Óleo de girassol', 379, 199, 60, 15),
      ocrAt('Bolacha Maria', 240, 237, 46, 16),
      ocrAt('12,90', 380, 230, 84, 32),
      ocrAt('4,99', 240, 262, 50, 30),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
      ['Óleo de girassol', 12.9],
      ['Bolacha Maria', 4.99],
    ]);
  });

  it("never takes the one word OCR read of a badge's misread script line as the name of the price under it", () => {
    // spn drawn at 150 dpi: "Exclusividade Cliente Clube" in script over the club price, read
    // "ExelERMSSS Cais lúh" with only "Cais" read surely.
    const offers = parseLayout([
      ocrAt('coxa', 66, 464, 37, 11),
      ocrAt('C/SOBRECOXA', 66, 483, 99, 11),
      unsure('CONG', 66, 501, 37, 11, 0.52),
      unsure('KG', 107, 502, 17, 10, 0.52),
      ocrAt('12,99', 68, 563, 64, 33),
      unsure('ExelERMSSS', 72, 605, 53, 6, 0),
      unsure('Cais', 130, 605, 26, 6, 0.85),
      unsure('lúh', 162, 605, 19, 6, 0),
      ocrAt('7,99', 78, 613, 102, 53),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['coxa C/SOBRECOXA CONG', 7.99, 12.99],
    ]);
  });

  it('reads a single OCR word after a price in its cell as part of the price, not as the name', () => {
    const offers = parseLayout([
      ocrAt('Lechuga', 215, 740, 60, 14),
      ocrAt('iceberg', 280, 740, 60, 14),
      ocrAt('1,49', 215, 786, 58, 31),
      ocrAt('€', 277, 786, 12, 25),
      ocrAt('unidas', 295, 786, 50, 25), // "la unidad", read poorly
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['Lechuga iceberg', 1.49]]);
  });

  it("gives a price to the name over it, not to noise OCR read from the next tile's display price", () => {
    // A generated Canadian page: "$3⁷⁹" came back as "sqm" (42 %), level with the "$5⁹⁹" of the
    // tile beside it, which it took as its name.
    const offers = parseLayout([
      ocrAt('Russet', 44, 454, 85, 22),
      ocrAt('Potatoes', 139, 454, 111, 22),
      ocrAt('Plain', 644, 452, 62, 24),
      ocrAt('Greek', 716, 452, 73, 24),
      ocrAt('Yogurt', 798, 454, 83, 28),
      ocrAt('750', 643, 494, 38, 17),
      ocrAt('g', 690, 498, 10, 18),
      { ...ocrAt('sqm', 27, 580, 143, 102), confidence: 0.42 },
      ocrAt('$5.99', 644, 594, 113, 77),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['Plain Greek Yogurt', 5.99]]);
  });

  it('keeps a name on one line when OCR boxed some of its words taller, up into the photo over it', () => {
    // Two tiles of a generated Spanish page (PDF points): "manchego curado" and "de mesa" were
    // boxed from the photos' edge down to the baseline; by their centres they stood a line above
    // "Queso" and "Naranjas" ("manchego curado Queso", "de mesa Naranjas").
    const offers = parseLayout([
      ocrAt('Queso', 21, 447, 40, 12),
      ocrAt('manchego', 63, 431, 60, 30),
      ocrAt('curado', 127, 433, 45, 28),
      ocrAt('Naranjas', 405, 446, 52, 15),
      ocrAt('de', 463, 432, 14, 26),
      ocrAt('mesa', 482, 433, 31, 25),
      ocrAt('14,50 €', 23, 526, 100, 31),
      ocrAt('3,50 €', 405, 526, 90, 31),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
      ['Queso manchego curado', 14.5],
      ['Naranjas de mesa', 3.5],
    ]);
  });

  it('reads a saving on a badge over a photo as a saving when OCR boxed its word taller, up into the photo', () => {
    // A generated German page (PDF points): "SPAREN" of "SIE SPAREN 4,00 €" was boxed from the
    // photo down to the baseline, so by its centre it stood a line above "SIE" and the amount, and
    // "SIE" was listed at 4.00.
    const offers = parseLayout([
      ocrAt('SIE', 458, 137, 20, 10),
      ocrAt('SPAREN', 481, 124, 46, 23),
      ocrAt('4,00', 531, 137, 25, 12),
      ocrAt('€', 560, 137, 8, 10),
      ocrAt('Hähnchenbrustfilet', 405, 195, 105, 12),
      ocrAt('8,79 €', 405, 240, 80, 40),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['Hähnchenbrustfilet', 8.79]]);
  });

  it("reads small words close after a big price, at its foot, as the price's unit, not as the next tile's name", () => {
    // A generated Spanish page (PDF points): "0,59 € la unidad" read "la idad", which named the
    // next tile's "0,29 €" on the line ("idad" at 0.29) instead of "Garbanzos cocidos" over it.
    const offers = parseLayout([
      ocrAt('Lechuga', 21, 676, 50, 14),
      ocrAt('iceberg', 76, 676, 45, 14),
      ocrAt('Garbanzos', 213, 676, 64, 12),
      ocrAt('cocidos', 281, 676, 47, 12),
      ocrAt('0,59', 22, 755, 58, 31),
      ocrAt('€', 91, 755, 9, 26),
      unsure('la', 112, 770, 9, 11, 0.45),
      unsure('idad', 132, 770, 31, 11, 0.69),
      ocrAt('0,29', 214, 755, 58, 31),
      ocrAt('€', 283, 755, 14, 26),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
      ['Lechuga iceberg', 0.59],
      ['Garbanzos cocidos', 0.29],
    ]);
  });

  describe("a multi-buy set across its whole tile, beside the next tile's price", () => {
    // A generated Brazilian page (PDF points): "Leve 4 por R$ 18" fills its tile and nearly meets
    // "R$ 20,49" of the tile beside it. Read as one cell, 18 became the neighbour's price.
    const names = [
      ocrAt('Macarrão', 21, 676, 57, 11),
      ocrAt('Espaguete', 83, 677, 63, 13),
      ocrAt('500', 21, 696, 18, 8),
      ocrAt('g', 43, 698, 5, 9),
      ocrAt('Arroz', 213, 677, 33, 11),
      ocrAt('Tipo', 249, 676, 26, 14),
      ocrAt('1', 281, 677, 4, 11),
      ocrAt('5', 213, 696, 5, 8),
      ocrAt('kg', 223, 696, 11, 11),
    ];
    const prices = (porY: number, porHeight: number) => [
      ocrAt('Leve', 22, 762, 46, 18),
      ocrAt('4', 74, 762, 11, 18),
      ocrAt('por', 94, porY, 32, porHeight),
      ocrAt('R$', 133, 759, 24, 24),
      ocrAt('18', 167, 762, 23, 18),
      ocrAt('R$ 20,49', 213, 744, 89, 37),
    ];
    const expected = [
      ['Macarrão Espaguete', 4.5],
      ['Arroz Tipo 1', 20.49],
    ];

    it('ends the multi-buy where the next price begins with its currency sign', () => {
      const offers = parseLayout([...names, ...prices(762, 18)]);
      expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual(expected);
    });

    it('keeps a word boxed lower by its descenders ("por") on the line', () => {
      const offers = parseLayout([...names, ...prices(767, 19)]);
      expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual(expected);
    });
  });

  it("never gives the store's name over the validity line to a price under it (a savings badge)", () => {
    const offers = parseLayout([
      at('Supermercado La Plaza', 21, 23, 330, 38),
      at('Ofertas válidas del 19 al 25 de marzo de 2026', 20, 75, 340, 12),
      // "AHORRA 1,00 €" on a photo, its word read as noise
      at('OR', 189, 137, 50, 20),
      at('1,00', 244, 137, 25, 12),
      at('€', 272, 137, 8, 10),
      at('Jamón serrano', 21, 195, 90, 12),
      at('2,79 €', 22, 239, 90, 31),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['Jamón serrano', 2.79]]);
  });

  it('keeps an OCR offer whose name reads like noise for audit (low confidence), not a clean one', () => {
    const ocr = (text: string, x: number, y: number, size: number): LayoutItem => ({
      ...item(text, x, y, size),
      confidence: 0.92,
    });
    const [noisy] = parseLayout([ocr('Russet Potd§oe bag', 40, 100, 14), ocr('$3.67', 40, 130, 40)]);
    const [clean] = parseLayout([ocr('Russet Potatoes bag', 40, 100, 14), ocr('$3.67', 40, 130, 40)]);
    expect(noisy!.confidence).toBeLessThan(0.5);
    expect(clean!.confidence).toBeGreaterThanOrEqual(0.5);
  });

  it('weighs OCR doubt alike in Latin-script and right-to-left print (their prices are read alike now)', () => {
    const doubtful = (text: string, x: number, y: number, size: number, confidence = 0.6): LayoutItem => ({
      ...item(text, x, y, size),
      confidence,
    });
    const [latin] = parseLayout([doubtful('Tomatoes per lb', 40, 100, 14), doubtful('$1.99', 40, 130, 40)]);
    const [persian] = parseLayout([
      doubtful('گوجه فرنگی کیلو', 40, 100, 14),
      doubtful('1,99 €', 40, 130, 40),
    ]);
    expect(latin!.confidence).toBeGreaterThanOrEqual(0.5);
    expect(persian!.confidence).toBe(latin!.confidence);
    const [unsure] = parseLayout([
      doubtful('گوجه فرنگی', 40, 100, 14, 0.3),
      doubtful('1,99 €', 40, 130, 40, 0.3),
    ]);
    expect(unsure!.confidence).toBeLessThan(0.5);
  });

  it('gives an OCR regular price read without its comma its comma back, and drops one far above the price', () => {
    const ocr = (text: string, x: number, y: number, size: number): LayoutItem => ({
      ...item(text, x, y, size),
      confidence: 0.9,
    });
    const offers = parseLayout([
      ocr('Vollkornbrot', 40, 100, 14),
      ocr('statt 225 €', 40, 120, 10),
      ocr('1,95 €', 40, 140, 40),
      ocr('Speisekartoffeln', 400, 100, 14),
      ocr('statt 18,95', 400, 120, 10),
      ocr('3,49 €', 400, 140, 40),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['Vollkornbrot', 1.95, 2.25],
      ['Speisekartoffeln', 3.49, 3.49],
    ]);
    // A text layer's prices are as printed.
    const [printed] = parseLayout([
      item('Speisekartoffeln', 40, 100, 14),
      item('statt 18,95', 40, 120, 10),
      item('3,49 €', 40, 140, 40),
    ]);
    expect(printed!.originalPrice).toBe(18.95);
  });

  it('takes no name from an OCR cell of a right-to-left price and its currency word, and gives the price to the tile above', () => {
    // "٣.٧٩ درهم كيلو" cut by the tile's edge: OCR reads the unit as "علله", beside the amount.
    const offers = parseLayout([
      ocrAt('طماطم', 500, 440, 70, 24),
      ocrAt('بدون', 560, 470, 40, 12),
      ocrAt('البطاقة', 505, 470, 50, 12),
      ocrAt('4.89', 470, 470, 30, 12),
      ocrAt('درهم', 470, 470, 30, 12),
      ocrAt('درهم', 400, 520, 110, 50),
      ocrAt('3.79', 515, 520, 90, 50),
      ocrAt('علله', 610, 530, 20, 30),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['طماطم', 3.79, 4.89],
    ]);
  });

  it('measures how far a right-to-left price reaches up by its digits, not by a taller word beside them', () => {
    // The store's name heads the page, straight over the price; the tile's name is at its right
    // edge. "يء" (كيلو misread) is boxed taller than the amount.
    const offers = parseLayout([
      ocrAt('الخير', 387, 24, 83, 39),
      ocrAt('سوق', 484, 25, 90, 36),
      ocrAt('طماطم', 526, 180, 49, 39),
      ocrAt('درهم', 312, 245, 73, 33),
      ocrAt('3.49', 397, 241, 63, 24),
      ocrAt('يء', 466, 239, 26, 42),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['طماطم', 3.49]]);
  });

  it('leaves out the stray marks OCR glued to the ends of Arabic-script words of a name', () => {
    const offers = parseLayout([
      ocrAt('زيتون"', 502, 712, 39, 14),
      ocrAt('#زيت', 546, 713, 28, 13),
      ocrAt('27.49', 397, 757, 83, 24),
    ]);
    expect(offers.map((o) => o.product)).toEqual(['زيت زيتون']);
  });

  it('takes no name from Arabic-script letters where a price’s currency word stands (left of the amount)', () => {
    const offers = parseLayout([
      ocrAt('عدس', 546, 361, 28, 41),
      ocrAt('أحمر', 500, 361, 32, 41),
      ocrAt('6.99', 397, 413, 64, 24),
      ocrAt('ذدرهقم', 310, 414, 75, 38), // درهم misread
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['عدس أحمر', 6.99]]);
  });

  it('takes no name from a short word OCR was unsure of beside a right-to-left price (its unit misread)', () => {
    // Two Persian tiles side by side, each with its former price over the new one. "١٥,٩٩ € کیلو"
    // is read "15.99 6 تپد": as a name, it took both new prices of the row.
    const offers = parseLayout([
      ocrAt('لیقوان', 235, 526, 23, 19),
      ocrAt('گوشت', 529, 529, 47, 25),
      ocrAt('پنیر', 262, 532, 24, 20),
      ocrAt('گوسفندی', 459, 538, 64, 16),
      ocrAt('گرم', 254, 549, 16, 14),
      ocrAt('قجلی', 518, 556, 19, 21),
      ocrAt('قیست', 545, 562, 28, 13),
      unsure('23.69', 480, 563, 29, 10, 0.24),
      ocrAt('قيمت', 260, 566, 28, 21), // the Arabic model's yeh
      ocrAt('قبلى', 233, 566, 22, 21),
      ocrAt('6.79', 205, 569, 22, 9),
      unsure('تپد', 426, 572, 26, 45, 0.49),
      unsure('6', 404, 584, 12, 24, 0.56),
      ocrAt('15.99', 313, 585, 77, 28),
      ocrAt('3.40', 24, 585, 57, 28),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['گوشت گوسفندی', 15.99, 23.69],
      ['پنیر لیقوان', 3.4, 6.79],
    ]);
  });

  it("takes no name from a photo's badge read as a short word OCR was unsure of", () => {
    // The "٤٠٪-" badge over the photo read "96 داع": as a name it took the tile's new price, the
    // former one alone staying with the tile's name.
    const offers = parseLayout([
      ocrAt('96', 317, 306, 12, 18),
      unsure('داع', 335, 309, 14, 10, 0.31),
      ocrAt('تمر', 553, 356, 24, 19),
      ocrAt('خلاص', 508, 356, 38, 19),
      unsure('آكغ', 556, 378, 18, 12, 0.43),
      ocrAt('السابق', 507, 396, 35, 12),
      unsure('27.55', 475, 397, 28, 8, 0.26),
      ocrAt('درهم', 446, 398, 24, 11),
      ocrAt('16.53', 397, 413, 78, 24),
      ocrAt('درهم', 310, 415, 75, 37),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['تمر خلاص', 16.53, 27.55],
    ]);
  });

  it('gives no neighbour the price of a right-to-left tile whose name OCR missed', () => {
    // Three tiles in a row; the middle one's name went unread. Its 17.99 is as big as its
    // neighbours' prices: neither the tile on its right (whose own price stands between) nor the
    // one on its left takes it.
    const offers = parseLayout([
      ocrAt('بسمتي', 505, 442, 47, 24),
      ocrAt('أرز', 558, 443, 16, 18),
      ocrAt('خيار', 164, 447, 27, 14),
      ocrAt('4.50', 109, 527, 50, 24),
      ocrAt('17.99', 301, 527, 77, 24),
      ocrAt('33.79', 494, 527, 90, 24),
      ocrAt('درهم', 22, 530, 75, 37),
      ocrAt('درهم', 214, 530, 75, 37),
      ocrAt('درهم', 406, 530, 76, 37),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice]).sort()).toEqual([
      ['أرز بسمتي', 33.79, 33.79],
      ['خيار', 4.5, 4.5],
    ]);
  });

  it('reads "2x5¢€", the euro sign read twice, as two for 5 € (2.50 each), not two for five cents', () => {
    // A generated Spanish tile as OCR read it; "¢€" had given 0.05.
    const offers = parseLayout(
      fixOcrWords([
        ocrAt('Jamón', 309, 195, 40, 12),
        ocrAt('serrano', 354, 198, 46, 8),
        ocrAt('200g', 309, 216, 28, 11),
        ocrAt('2x5¢€', 309, 240, 87, 25),
      ]),
    );
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['Jamón serrano', 2.5]]);
  });

  it('reads an OCR line of pieces and their total, its currency sign lost, as a multi-buy ("18 عدد 3")', () => {
    // A generated Persian page's "۳ عدد ۱۸ €": OCR read no "€", and the line went unread.
    const offers = parseLayout([
      ocrAt('پسته', 156, 449, 35, 13),
      ocrAt('گرم', 157, 463, 16, 18),
      ocrAt('500', 177, 468, 12, 8),
      ocrAt('38', 78, 532, 33, 20),
      ocrAt('عدد', 120, 536, 45, 15),
      ocrAt('3', 175, 531, 15, 20),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.unit])).toEqual([['پسته', 12.67, 'each']]);
    // From a text layer, in the order read, such a line is no price without its currency.
    expect(findPrices('3 عدد 18')).toEqual([]);
    expect(findPrices('18 عدد 3', true).map((p) => [p.value, p.multiBuy])).toEqual([[6, 3]]);
    expect(findPrices('120.00 عدد 6', true).map((p) => p.value)).toEqual([20]);
    expect(findPrices('466 عدد 2', true)).toEqual([]);
    expect(findPrices('6 عدد 120', true)).toEqual([]);
    // Generated seed 91's "۲ عدد ۵۸ €", its "€" read as "©".
    expect(findPrices('© 58 عدد 2', true).map((p) => [p.value, p.multiBuy])).toEqual([[29, 2]]);
    expect(findPrices('€ 58 عدد 2', true).map((p) => [p.value, p.multiBuy])).toEqual([[29, 2]]);
    expect(findPrices('©58 عدد 2', true)).toEqual([]);
  });

  it('gives each right-to-left tile of a row its own price (name at the right edge, price at the left)', () => {
    // OCR of two Arabic tiles side by side: each price line reads "<currency> <amount>" left to
    // right on the page, the right tile's currency word close to the left tile's amount.
    const offers = parseLayout([
      ocrAt('أحمر', 242, 452, 66, 37),
      ocrAt('عدس', 332, 452, 65, 37),
      ocrAt('خيار', 741, 453, 56, 30),
      ocrAt('درهم', 40, 637, 128, 56),
      ocrAt('15', 189, 629, 47, 41),
      ocrAt('حبة', 257, 620, 91, 64),
      ocrAt('2', 368, 629, 28, 41),
      ocrAt('درهم', 449, 630, 153, 69),
      ocrAt('2.99', 628, 621, 130, 50),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice]).sort()).toEqual([
      ['خيار', 2.99, 2.99],
      ['عدس أحمر', 7.5, 7.5],
    ]);
  });

  it.each([
    ['Pork Shoulder‘Roas', 0.25],
    ['(WEE Al', 0.4],
    ['Arroz nlp', 5 / 8],
    ['BBQ Sauce', 1],
    ['Coca-Cola 2L', 1],
    ['Huile d’olive vierge', 1],
    ['نان بربری', 1],
    ['زيت زيتون"', 1],
    ['دجاج طازج؟', 1],
    ['COXA C/SOBRECOXA CONG', 1],
    ['Ovos Bdj. Grado', 1],
    ['Ovos Bdj Grado', 9 / 12],
    ['MacarrãWEspaguete', 0],
    ['Pão de Forma PullmanW', 1],
    ['McCain Batata Pré-Frita', 1],
    ['NaturNah Hafer', 1],
    ['Green CRage', 5 / 10],
    ['Tomate NEliaffo', 6 / 14],
    ['UHT Milch', 1],
    ['KNORR Suppe', 1],
    ['AMERICAN CHEESE,', 1],
    ['Bacon; sliced', 1],
    ['Ba,con', 0],
    ['Vaso Suculenta Mini PO6', 1], // a pot's code (savegnago drawn at 150 dpi)
    ['Vaso orquídea P12', 1],
    ['طان8ظ حليب', 4 / 8], // an Arabic word with a figure inside is misread, no code
    ['Fr8sh Milk', 4 / 8],
  ])('name likelihood of "%s" is %d', (name, likelihood) => {
    expect(nameLikelihood(name)).toBeCloseTo(likelihood, 2);
  });

  it('does not give a tile the amount of a savings badge printed beside it', () => {
    const offers = parseLayout([
      item('Tomates grappe', 40, 100, 14),
      item('Prix sans carte 3,39 €', 40, 120, 10),
      item('2,29 €', 40, 140, 40),
      item('ÉCONOMISEZ 0,50 €', 120, 150, 14),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['Tomates grappe', 2.29, 3.39],
    ]);
  });

  it('reaches a tile name through the multi-buy note block over its deal price, one offer a tile', () => {
    // Savegnago: the tile's price sits beside its second name line, the note block and its price
    // under that line; both prices are one tile's (regular 5,99, per unit when buying 5: 4,79).
    const offers = parseLayout([
      at('Queijo parmesão Vigor', 667, 264, 75, 8),
      at('ralado 50g', 667, 272, 34, 8),
      at('R$ 5,99', 711, 273, 46, 22),
      at('Levando 5 unidades', 666, 344, 53, 6),
      at('Pague 4 . Nesta', 666, 350, 43, 6),
      at('promoção a', 666, 355, 32, 6),
      at('unidade sai por', 666, 360, 42, 6),
      at('R$ 4,79', 667, 365, 38, 17),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['Queijo parmesão Vigor', 4.79, 5.99],
    ]);
  });

  it("gives a card-price badge set on a tile's picture to the tile whose price is over it", () => {
    // Savegnago: "no nosso cartão pague 3,99" is a picture whose amount alone is text, under the
    // picture, left of the tile's name; two app-price badges share a line under two tiles; a
    // multi-buy badge sits under a price printed on its name's line.
    const page = (of: typeof at) => [
      of('Wafer Bauducco 104g', 169, 540, 71, 8),
      of('ou 140g', 169, 547, 26, 8),
      of('R$ 4,49', 166, 555, 52, 24),
      of('3,99', 118, 581, 25, 18),
      of('Chocolate Nestlé tablete', 195, 624, 80, 8),
      of('R$ 9,98', 282, 618, 50, 22),
      of('80g ou 90g', 195, 631, 36, 8),
      of('Levando 3 unidades', 288, 664, 55, 6),
      of('pague', 288, 670, 17, 6),
      of('R$ 8,98', 288, 674, 37, 16),
      of('Suco Maguary Seleção 1,35L', 330, 732, 92, 8),
      of('R$ 13,90', 339, 738, 62, 23),
      of('Água de coco', 274, 779, 43, 8),
      of('Sococo 1L', 274, 787, 32, 8),
      of('R$ 13,90', 268, 796, 62, 23),
      of('12,90', 273, 849, 31, 20),
      of('12,90', 382, 848, 32, 20),
    ];
    const offers = parseLayout(page(at)).map((o) => [o.product, o.discountedPrice, o.originalPrice]);
    expect(offers).toEqual(
      expect.arrayContaining([
        ['Wafer Bauducco', 3.99, 4.49],
        ['Chocolate Nestlé tablete', 8.98, 9.98],
        ['Suco Maguary Seleção', 12.9, 13.9],
        ['Água de coco Sococo', 12.9, 13.9],
      ]),
    );
    expect(offers).toHaveLength(4);
    expect(parseLayout(page(at)).every((o) => o.fromTextLayer)).toBe(true);
    // Read by OCR, a price with no name over it may be a tile whose name OCR missed: not a badge.
    const read = parseLayout(page(ocrAt));
    expect(read.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toContainEqual([
      'Wafer Bauducco',
      4.49,
      4.49,
    ]);
    expect(read.some((o) => o.fromTextLayer)).toBe(false);
  });

  it("gives an OCR price straight under a tile's price, lower and with nothing between, to that tile as its card price", () => {
    // Savegnago rasterised: the card badge's "4.99" under the photo, under the tile's "5,99".
    const tile = (badge: string, between: LayoutItem[] = [], x = 114) =>
      parseLayout([
        ocrAt('Leite fermentado', 80, 702, 60, 7),
        ocrAt('Bob Esponja 480g', 80, 710, 60, 7),
        ocrAt('5,99', 86, 729, 53, 18),
        ...between,
        ocrAt(badge, x, 810, 40, 17),
      ]).map((o) => [o.product, o.discountedPrice, o.originalPrice]);
    expect(tile('4.99')).toEqual([['Leite fermentado Bob Esponja', 4.99, 5.99]]);
    // One under half the price, one set beside its width (a staggered tile's), or one with a word
    // over it (the tile under's name, misread), is not the card's.
    expect(tile('4.99', [], 125)).toEqual([['Leite fermentado Bob Esponja', 5.99, 5.99]]);
    expect(tile('1.99')).toEqual([['Leite fermentado Bob Esponja', 5.99, 5.99]]);
    expect(tile('4.99', [unsure('Da', 110, 765, 30, 12, 0.39)])).toEqual([
      ['Leite fermentado Bob Esponja', 5.99, 5.99],
    ]);
  });

  it('gives a price the surely read name over it rather than a better centred word OCR was unsure of', () => {
    // Savegnago rasterised: "Pra" (0.26) of a badge's ink stood nearer the middle of "2,19".
    const offers = parseLayout([
      ocrAt('Água mineral sem', 60, 759, 90, 9),
      ocrAt('gás Levíssima 1,5L', 60, 768, 90, 7),
      unsure('Pra', 170, 768, 30, 10, 0.3),
      ocrAt('2,19', 100, 784, 100, 29),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
      ['Água mineral sem gás Levíssima', 2.19],
    ]);
  });

  it("takes no name from a short word OCR was unsure of over a price (a card badge's small print)", () => {
    // Savegnago rasterised: "not" (0.59) of "NO NOSSO CARTÃO PAGUE" over the card price 12,90.
    const offers = parseLayout([
      ocrAt('Água de coco', 274, 779, 43, 8),
      ocrAt('Sococo 1L', 274, 787, 32, 8),
      ocrAt('13,90', 270, 799, 66, 27),
      unsure('not', 259, 850, 10, 3, 0.59),
      ocrAt('12,90', 268, 854, 42, 19),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['Água de coco Sococo', 12.9, 13.9],
    ]);
  });

  it("takes no name from a card badge's or a limit's small print over a price, OCR's letters off and all", () => {
    // Savegnago at 300 dpi and JPEG quality 50: "GANHE PAGUE" of "SAVE GANHE PAGUE" stood as the
    // name of the card price 12,90, and "Limie de 20 / cliente/compra" (Limite de 20 unid. por
    // cliente) between "6,25" and the card price "5,95": the tile was listed at its regular price.
    const badge = (smallPrint: string) =>
      parseLayout([
        ocrAt('Suco Maguary Seleção 1,35L', 330, 735, 92, 6),
        ocrAt('13,90', 338, 742, 68, 23),
        ocrAt(smallPrint, 380, 848, 40, 4),
        ocrAt('12,90', 379, 851, 41, 21),
      ]).map((o) => [o.product, o.discountedPrice, o.originalPrice]);
    for (const smallPrint of ['GANHE PAGUE', 'NO NOSSO CARTÃO', 'pegue'])
      expect(badge(smallPrint)).toEqual([['Suco Maguary Seleção', 12.9, 13.9]]);
    const limited = parseLayout([
      ocrAt('Óleo de soja Soya', 419, 311, 58, 8),
      ocrAt('6,25', 412, 326, 62, 27),
      ocrAt('Limie de 20', 429, 384, 35, 8),
      ocrAt('Dor cliente/compra', 429, 390, 52, 6),
      ocrAt('5,95', 426, 404, 43, 27),
    ]);
    expect(limited.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['Óleo de soja Soya', 5.95, 6.25],
    ]);
  });

  it("leaves out a pack's price per unit under its note, read across another column's line and a misread line of the note", () => {
    // Savegnago rasterised: the pack price "50,28" went unread; "Nesta embalagem / cada unidade sai
    // / por R$ 4,19" has its "por" read "orgs", and the next column's "CEAR" sits between its lines.
    const offers = parseLayout([
      ocrAt('Cerveja Original lata 350ml', 659, 881, 90, 7),
      ocrAt('com 12 unidades', 675, 888, 60, 6),
      ocrAt('Nesta embalagem', 677, 977, 60, 7),
      ocrAt('CEAR', 63, 982, 30, 5),
      ocrAt('cada unidade sai', 677, 985, 55, 6),
      unsure('orgs', 677, 990, 31, 11, 0),
      ocrAt('R$', 692, 996, 8, 8),
      ocrAt('4,19', 701, 994, 41, 25),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([]);
  });

  it("drops the unpaired brackets OCR read beside a name's words, and keeps paired ones", () => {
    // Savegnago rasterised: "União)" (a badge's edge) weighed the name as noise.
    const tile = (name: string) =>
      parseLayout([ocrAt(name, 600, 300, 90, 8), ocrAt('12,90', 600, 312, 70, 30)]).map((o) => [
        o.brand,
        o.product,
      ]);
    expect(tile('Açúcar cristal União)')).toEqual([['', 'Açúcar cristal União']]);
    expect(tile('(Caril Feijão carioca')).toEqual([['', 'Caril Feijão carioca']]);
    expect(tile('Feijão carioca (Camil)')).toEqual([['Camil', 'Feijão carioca']]);
  });

  it("takes no name from a lone word OCR read in display type on a page whose names are small (a photo's packaging)", () => {
    // Savegnago rasterised: "COSTA" off a pack's print, three times the names' size, over a card price.
    const offers = parseLayout([
      ocrAt('Fígado bovino granel', 100, 100, 60, 7),
      ocrAt('15,90', 100, 110, 70, 28),
      ocrAt('Linguiça tipo calabresa', 300, 100, 70, 7),
      ocrAt('23,90', 300, 110, 80, 30),
      ocrAt('COSTA', 500, 100, 89, 21),
      ocrAt('7,99', 520, 125, 32, 18),
    ]);
    expect(offers.map((o) => o.product)).toEqual(['Fígado bovino granel', 'Linguiça tipo calabresa']);
  });

  it('leaves out of a name the words OCR all but failed to read among the ones it read', () => {
    const offers = parseLayout([
      ocrAt('Safran', 100, 100, 40, 10),
      unsure('etzt', 142, 100, 20, 10, 0.1),
      ocrAt('1,99', 100, 115, 50, 30),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['Safran', 1.99]]);
  });

  it("never joins two names of one line across another tile's price between them", () => {
    // Savegnago rasterised: "Pao de forma" | 1.69 (the tile over it's) | "Bebida láctea 1,58" came
    // out as one offer "Pao de forma Bebida láctea".
    const offers = parseLayout([
      ocrAt('Bebida láctea UHT', 235, 384, 55, 7),
      ocrAt('Pao de forma', 137, 405, 45, 8),
      ocrAt('1.69', 227, 395, 70, 32),
      ocrAt('Bebida láctea 1,58', 393, 403, 63, 12),
    ]).map((o) => [o.product, o.discountedPrice]);
    expect(offers).toContainEqual(['Bebida láctea', 1.58]);
    expect(offers.some(([product]) => String(product).includes('Pao de forma Bebida'))).toBe(false);
  });

  it("finds a tile's pack size on the line over its price when another column's line comes between", () => {
    // Berwyn: page-wide lines, so "2X$5.00" of the next column is the line right before "99¢".
    const offers = parseLayout([
      at('WHOLE', 517, 210, 61, 15),
      at('JALAPENOS', 498, 231, 101, 15),
      at('26OZ', 533, 252, 29, 10),
      at('PASTA SAUCE', 340, 222, 110, 15),
      at('2X$5.00', 347, 252, 100, 30),
      at('99¢', 515, 268, 70, 35),
    ]);
    expect(offers.find((o) => o.discountedPrice === 0.99)?.unit).toBe('26OZ');
  });

  it('leaves out a price that only informs what one unit of a pack comes to', () => {
    const offers = parseLayout([
      at('Cerveja Original lata 350ml', 658, 878, 88, 8),
      at('com 12 unidades', 674, 885, 55, 8),
      at('R$ 50,28', 674, 891, 65, 24),
      at('Nesta embalagem', 677, 974, 63, 8),
      at('cada unidade sai', 677, 982, 59, 8),
      at('por R$', 677, 991, 23, 8),
      at('4,19', 706, 991, 32, 21),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['Cerveja Original lata com', 50.28, 50.28],
    ]);
  });

  it('gives no offer when only the "was" price of a tile was read (its own price was not)', () => {
    const offers = parseLayout([item('Pork Shoulder Roast', 40, 100, 14), item('Was $1.89', 40, 130, 10)]);
    expect(offers).toEqual([]);
  });

  it('joins the OCR words of a right-to-left name from the right, and finds it over a price at the left', () => {
    const offers = parseLayout([
      item('پنیر', 1144, 426, 30),
      item('لیقوان', 1051, 426, 30),
      item('400', 1120, 491, 14),
      item('گرم', 1160, 491, 14),
      item('6,95', 849, 621, 50),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['پنیر لیقوان', 6.95]]);
  });

  it('does not give a small name line the big price of a neighbouring tile that shares its line', () => {
    // Savegnago-like: tile A's name lines (8 pt) at the left; tile B's price (24 pt) level with one.
    const offers = parseLayout([
      at('Lava roupa em pó Tixan 2,2kg', 373, 790, 96, 8),
      at('R$ 20,90', 392, 818, 63, 24),
      at('Desodorante', 211, 820, 42, 8),
      at('aerossol Rexona', 211, 828, 52, 8),
      at('masculino ou feminino', 211, 835, 70, 8),
      at('R$ 16,90', 207, 850, 64, 24),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice]).sort()).toEqual([
      ['Desodorante aerossol Rexona masculino ou feminino', 16.9],
      ['Lava roupa em pó Tixan', 20.9],
    ]);
  });

  it('reads a price set in pieces whose raised cents sit on another line than its whole part', () => {
    // Savegnago: "5" and "," (29 pt) and the cents "99" (23 pt, top-aligned), a digit's box wider
    // than its advance so the comma starts inside it, and a neighbour's name level with the cents.
    const offers = parseLayout([
      at('Bebida com suco Del', 436, 732, 67, 8),
      at('Valle Frut pet 1,5L', 440, 739, 58, 8),
      at('R$', 434, 754, 11, 10),
      at('99', 468, 749, 30, 23),
      at('5', 447, 747, 17, 29),
      at(',', 461, 747, 10, 29),
      at('Refresco em pó Tang 18g', 63, 758, 80, 8),
      at('R$ 1,29', 91, 767, 46, 22),
      at('Sukita 2L', 630, 700, 30, 8),
      at('8', 630, 712, 16, 29),
      at('49', 647, 713, 20, 16),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice]).sort()).toEqual([
      ['Bebida com suco Del Valle Frut pet', 5.99],
      ['Refresco em pó Tang', 1.29],
      ['Sukita', 8.49],
    ]);
  });

  it('gives a big price the free name right over it, not the small name of a staggered tile beside it', () => {
    // Savegnago-like dense grid: tile B's first name line is level with tile A's price, which sits
    // right under tile A's own name.
    const offers = parseLayout([
      at('Farofa pronta Siamar 400g', 567, 274, 86, 8),
      at('Milho de', 504, 287, 29, 8),
      at('R$ 4,95', 580, 281, 65, 29),
      at('pipoca Yoki', 504, 294, 37, 8),
      at('400g', 504, 302, 16, 8),
      at('R$ 6,49', 503, 312, 49, 23),
    ]);
    expect(offers.map((o) => [o.brand, o.product, o.discountedPrice, o.unit]).sort()).toEqual([
      ['', 'Farofa pronta Siamar', 4.95, '400g'],
      ['', 'Milho de pipoca Yoki', 6.49, '400g'],
    ]);
  });

  it('gives a price the name straight over it, not a nearer name of the next tile that only reaches it', () => {
    // Berwyn-like: the middle tile's name sits lower than the right tile's, both above one baseline.
    const offers = parseLayout([
      at('CHICKEN', 393, 193, 129, 25),
      at('BREAST', 401, 229, 112, 25),
      at('SIRLOIN', 247, 190, 92, 20),
      at('ESPINAZO', 222, 247, 143, 25),
      at('$2.49', 239, 280, 109, 48),
      at('$1.99', 391, 262, 132, 60),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice]).sort()).toEqual([
      ['CHICKEN BREAST', 1.99],
      ['ESPINAZO', 2.49],
    ]);
  });

  it('does not pair the last line of a stacked tile name with the big prices of the tiles beside it', () => {
    // Berwyn page 1: three tiles; the middle name's last line shares a line with both neighbours' prices.
    const offers = parseLayout([
      at('BOTTOM', 94, 388, 97, 20),
      at('ROUND', 101, 417, 81, 20),
      at('ROAST', 104, 445, 77, 20),
      at('$6.49', 84, 471, 116, 50),
      at('WHOLE FRESH', 232, 402, 122, 15),
      at('PORK HAM', 248, 423, 91, 15),
      at('PERNIL', 248, 445, 90, 22),
      at('PIERNA ENTERA', 225, 475, 137, 15),
      at('$1.49', 245, 495, 97, 45),
      at('CHICKEN', 412, 400, 103, 20),
      at('DRUMSTICKS', 382, 428, 150, 20),
      at('99¢', 417, 455, 80, 50),
    ]);
    const byPrice = Object.fromEntries(offers.map((o) => [o.discountedPrice, o.product]));
    expect(byPrice[6.49]).toMatch(/ROAST/);
    expect(byPrice[1.49]).toMatch(/PIERNA ENTERA/);
    expect(byPrice[0.99]).toMatch(/DRUMSTICKS/);
    expect(offers).toHaveLength(3);
  });

  /** An item with an explicit width (glyph runs that touch). */
  const run = (text: string, x: number, y: number, width: number, height: number): LayoutItem => ({
    text,
    x,
    y,
    width,
    height,
  });

  it('reads a price set in pieces with smaller cents, printed twice (outline under fill), once', () => {
    const pieces = (x: number) => [
      run('1', x, 175, 12, 27),
      run(',', x + 12, 175, 8, 27),
      run('69', x + 20, 178, 27, 21),
    ];
    const offers = parseLayout([
      run('Alho Importado cada 100g', 58, 160, 86, 8),
      run('R$', 73, 179, 11, 10),
      ...pieces(87),
      ...pieces(87.5),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      [expect.stringContaining('Alho Importado'), 1.69, 1.69],
    ]);
  });

  it('keeps neighbouring tiles apart when their big prices share a baseline', () => {
    const offers = parseLayout([
      run('PORK BUTT', 83, 177, 118, 18),
      run('TAMALES', 89, 259, 107, 20),
      run('ESPINAZO', 222, 247, 143, 25),
      run('$1.29', 82, 286, 104, 48),
      run('$2.49', 239, 280, 109, 48),
      run('LB', 128, 344, 28, 30),
      run('LB', 279, 338, 28, 30),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice])).toEqual([
      ['TAMALES', 1.29, 1.29],
      ['ESPINAZO', 2.49, 2.49],
    ]);
  });

  it('reads a name printed over several stacked lines above its price', () => {
    const offers = parseLayout([
      run('PORK BUTT', 83, 177, 118, 18),
      run('CARNE', 103, 203, 78, 20),
      run('PARA', 111, 231, 61, 20),
      run('TAMALES', 89, 259, 107, 20),
      run('$1.29', 82, 286, 104, 48),
    ]);
    expect(offers.map((o) => `${o.brand} ${o.product}`.trim())).toEqual(['PORK BUTT CARNE PARA TAMALES']);
    expect(offers[0]!.box).toEqual({ x: 82, y: 177, width: 119, height: 157 });
  });

  it("reads a stacked name's lines across another column's line set between them (its baseline differs)", () => {
    // The right column's "SIRLOIN" is centred between the left name's two lines: its own line.
    const offers = parseLayout([
      { ...run('CHICKEN', 100, 200, 90, 20), confidence: 0.9 },
      { ...run('SIRLOIN', 300, 214, 90, 20), confidence: 0.9 },
      { ...run('BREAST', 100, 226, 80, 20), confidence: 0.9 },
      { ...run('$1.99', 100, 256, 100, 48), confidence: 0.9 },
      { ...run('ROAST', 300, 240, 70, 20), confidence: 0.9 },
      { ...run('$6.49', 300, 268, 100, 48), confidence: 0.9 },
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
      ['CHICKEN BREAST', 1.99],
      ['SIRLOIN ROAST', 6.49],
    ]);
  });

  it("does not stack a word OCR all but failed to read (a photo's texture) onto a tile's name", () => {
    const offers = parseLayout([
      { ...run('ato', 110, 180, 30, 14), confidence: 0 },
      { ...run('Bolo', 100, 200, 40, 14), confidence: 0.96 },
      { ...run('Pamonha', 145, 200, 70, 14), confidence: 0.96 },
      { ...run('3,99', 100, 222, 90, 40), confidence: 0.95 },
    ]);
    expect(offers.map((o) => [o.brand, o.product, o.discountedPrice])).toEqual([['', 'Bolo Pamonha', 3.99]]);
  });

  it("does not read a stacked name's lines across a line of its own column that holds no name", () => {
    const offers = parseLayout([
      { ...run('WEEKLY', 100, 200, 90, 20), confidence: 0.9 },
      { ...run('####', 100, 226, 80, 20), confidence: 0.9 },
      { ...run('BREAST', 100, 252, 80, 20), confidence: 0.9 },
      { ...run('$1.99', 100, 282, 100, 48), confidence: 0.9 },
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([['BREAST', 1.99]]);
  });

  it("reads OCR's two lines of one size as one name, though the ink of one has descenders; a clearly smaller top line is a brand", () => {
    // OCR boxes hold the ink: "Banana" (no descender) is ~0.8 as tall as "Branca Kg" at one size.
    const tile = (top: string, topHeight: number, confidence: number) =>
      parseLayout([
        { ...run(top, 110, 100, 70, topHeight), confidence },
        { ...run('Branca', 100, 100 + topHeight + 4, 70, 17), confidence },
        { ...run('Kg', 175, 100 + topHeight + 4, 20, 17), confidence },
        { ...run('3.99', 100, 160, 90, 40), confidence },
      ]).map((o) => [o.brand, o.product]);
    expect(tile('Banana', 13, 0.9)).toEqual([['', 'Banana Branca']]);
    expect(tile('Banana', 10, 0.9)).toEqual([['Banana', 'Branca']]);
    // A text layer's boxes are the type's size: there a line 0.8 as tall is printed smaller.
    expect(tile('Banana', 13, 1)).toEqual([['Banana', 'Branca']]);
  });

  it("does not stack a headline over the tiles onto a tile's name (ten times its size, just above it)", () => {
    const offers = parseLayout([
      { ...run('SÃO', 365, 326, 260, 235), confidence: 0.94 },
      { ...run('JOÃO', 291, 542, 400, 196), confidence: 0.9 },
      { ...run('Ponkan', 220, 805, 70, 16), confidence: 0.9 },
      { ...run('Kg', 298, 806, 25, 21), confidence: 0.95 },
      { ...run('2.99', 192, 1064, 159, 68), confidence: 0.9 },
    ]);
    expect(offers.map((o) => [o.brand, o.product, o.discountedPrice])).toEqual([['', 'Ponkan', 2.99]]);
  });

  it('reads right-to-left rows (Persian): the name from the right end, Persian digits, old and new price', () => {
    const offers = parseLayout([
      run('برنج طارم', 420, 100, 90, 14),
      run('۱۰ کیلو', 330, 100, 50, 14),
      run('۲۴٫۰۰ €', 200, 100, 60, 14),
      run('۲۰٫۹۹ €', 60, 100, 60, 14),
      run('ﺯﻋﻔﺮﺍﻥ', 420, 160, 60, 14),
      run('٣,٠٠ €', 200, 160, 50, 14),
      run('١,٩٩ €', 60, 160, 50, 14),
    ]);
    expect(offers.map((o) => [o.product, o.originalPrice, o.discountedPrice])).toEqual([
      ['برنج طارم', 24, 20.99],
      ['زعفران', 3, 1.99],
    ]);
  });

  it('reads a page of more items than any flyer holds from its largest ones (a hostile page)', () => {
    // Every small item is an offer of its own, each on its own line: twice as many as are read.
    const fine = Array.from({ length: 2 * MAX_LAYOUT_ITEMS }, (_, i) =>
      item(`Mehl ${i} 2,00 €`, 40, 300 + i * 10, 4),
    );
    const offers = parseLayout([item('Butter', 40, 100, 20), item('1,99 €', 40, 130, 40), ...fine]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toContainEqual(['Butter', 1.99]);
    expect(offers.length).toBeLessThanOrEqual(MAX_LAYOUT_ITEMS);
  });

  it.each(['1.', '12.10. ', '1/1 ', '9¢ ', '$1 ', '1 kg = '])(
    'reads a page whose one text item is 200,000 characters of "%s" (a hostile text layer)',
    (unit) => {
      // Was: minutes of one core. Dates and prices blanked to one long run of spaces, which
      // patterns free to start with spaces scanned again from each of its characters, and every
      // amount of the line checked against every other.
      const hostile = unit.repeat(Math.ceil(200_000 / unit.length));
      const offers = parseLayout([
        item('Butter', 40, 100, 20),
        item('1,99 €', 40, 130, 40),
        item(hostile, 40, 400, 4),
      ]);
      expect(offers.map((o) => [o.product, o.discountedPrice])).toContainEqual(['Butter', 1.99]);
    },
  );

  it.each([
    // German packs' sizes in one word ("400-g-Packung") are their unit.
    ['Bio-Vollmilch', '1-l-Packung (1 l = 1,19)', '1,19', 1.19, '1-l-Packung'],
    ['Gouda jung', '400-g-Packung (1 kg = 4,98)', '1,99', 1.99, '400-g-Packung'],
    ['Café moulu', '250 g, soit 11,96 € le kg', '2,99 €', 2.99, '250 g'],
    ['Mozzarella', '125 g, al kg € 7,92', '0,99 €', 0.99, '125 g'],
    ['Queso fresco', '250 g, 11,96 €/kg', '2,99 €', 2.99, '250 g'],
    ['Lachsfilet', '200 g (100 g = 1,25 €)', '2,49 €', 2.49, '200 g'],
    ['Ground coffee', '12 oz, 33¢ per oz', '$3.99', 3.99, '12 oz'],
  ])(
    'a reference price under "%s" ("%s") is neither an offer nor its regular price',
    (name, note, price, value, unit) => {
      const offers = parseLayout([item(name, 40, 100, 14), item(note, 40, 120, 9), item(price, 40, 140, 40)]);
      expect(offers.map((o) => [o.discountedPrice, o.originalPrice, o.unit])).toEqual([[value, value, unit]]);
      expect(offers[0]!.product).toContain(name);
    },
  );

  it.each([
    ['Biscotti ricchi', '700 g', '€ 3,70 al kg', 2.59, '700 g'],
    ['Passata extrafine', '2 x 350 g', '1,27 €/kg', 0.89, '2 x 350 g'],
    ['Latte intero', '500 ml', '€ 1,98 al litro', 0.99, '500 ml'],
    ['Panna da cucina', '20 cl', '€ 4,95 al l', 0.99, '20 cl'],
    ['Baby carrots', '907 g bag', '$2.19 per kg', 1.99, '907 g bag'],
    // The kilo in Italian and Portuguese words.
    ['Biscotti', '700 g', '€ 3,70 al chilo', 2.59, '700 g'],
    ['Café torrado', '500 g', 'R$ 51,80 o quilo', 25.9, '500 g'],
    // Above a kilo the per-kilo price, rounded from the pack's, gives the pack's only to within cents.
    ['Patate', '2,5 kg', '€ 0,80 al kg', 0.8, 'per kg'],
    // A pack size in another measure than the rate's says nothing of the pack's price.
    ['Olio di semi', '750 g', '€ 2,60 al litro', 2.6, 'per litro'],
  ])(
    'a tile whose only price is per kilo or litre ("%s", %s, "%s") prices its pack up to a kilo or litre (the pack price printed as a picture)',
    (name, pack, rate, value, unit) => {
      const offers = parseLayout([
        at(name, 40, 100, 80, 9),
        at(pack, 45, 112, 30, 9),
        at(rate, 40, 160, 90, 14),
      ]);
      expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice, o.unit])).toEqual([
        [name, value, value, unit],
      ]);
    },
  );

  it('keeps apart two tiles whose names OCR read on one line across the frame between them ("|")', () => {
    const offers = parseLayout([
      ocrAt('Aceite', 213, 446, 38, 11),
      ocrAt('de', 256, 446, 14, 11),
      ocrAt('oliva', 275, 446, 28, 11),
      ocrAt('virgen', 307, 446, 37, 14),
      ocrAt('extra', 349, 448, 30, 10),
      ocrAt('|', 387, 445, 5, 18),
      ocrAt('|', 396, 445, 5, 18),
      ocrAt('Lechuga', 405, 446, 50, 14),
      ocrAt('iceberg', 460, 446, 44, 14),
      ocrAt('7,95 €', 214, 526, 84, 30),
      ocrAt('0,99 €', 406, 526, 84, 30),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
      ['Aceite de oliva virgen extra', 7.95],
      ['Lechuga iceberg', 0.99],
    ]);
  });

  it('takes a size under a stacked name as the unit, never a unit word alone there', () => {
    const tile = (under: string) =>
      parseLayout([
        at('Pistacchi', 40, 100, 60, 9),
        at(under, 45, 112, 20, 9),
        at('2,99 €', 40, 160, 60, 24),
      ]);
    expect(tile('250 g').map((o) => o.unit)).toEqual(['250 g']);
    expect(tile('kg').map((o) => o.unit)).toEqual(['']);
  });

  it('keeps the pack price printed beside a per-kilo one, which is no regular price', () => {
    const offers = parseLayout([
      at('Biscotti ricchi', 40, 100, 80, 9),
      at('700 g', 45, 112, 30, 9),
      at('2,59 €', 40, 130, 60, 24),
      at('€ 3,70 al kg', 40, 160, 60, 8),
    ]);
    expect(offers.map((o) => [o.product, o.discountedPrice, o.originalPrice, o.unit])).toEqual([
      ['Biscotti ricchi', 2.59, 2.59, '700 g'],
    ]);
    const oneLine = parseLayout([
      at('Passata extrafine', 40, 100, 80, 9),
      at('700 g', 45, 112, 30, 9),
      at('0,89 € 1,27 €/kg', 40, 130, 90, 14),
    ]);
    expect(oneLine.map((o) => [o.discountedPrice, o.originalPrice, o.unit])).toEqual([[0.89, 0.89, '700 g']]);
  });

  it('ignores lines without prices and prices without any name', () => {
    expect(
      parseLayout([item('Öffnungszeiten: Mo - Sa 8 – 20 Uhr', 40, 20), item('9,99 €', 400, 300)]),
    ).toEqual([]);
  });
});

describe('validity', () => {
  it.each([
    ['gültig vom 12.10. bis 17.10.2020', '2020-10-17'],
    ['Angebote gültig bis 20.10.', '2030-10-20'],
    ['Prices valid until 10/17', '2030-10-17'],
    ['valid 10/12 - 10/19/2031', '2031-10-19'],
    ['valid through Oct 21, 2030', '2030-10-21'],
    ['WEEKLY SPECIALS COFFEE $7.99 valid until 10/17', '2030-10-17'],
    ['Offers valid Oct 12 - Oct 18', '2030-10-18'],
    ['Prices valid 12.10.-19.10.2030', '2030-10-19'],
    ['Gültig von Montag 12.10. bis Samstag 17.10.', '2030-10-17'],
    ['valid until 17 October', '2030-10-17'],
    ['Angebote gültig bis 24. Okt. 2030', '2030-10-24'],
    ['Sale ends 10/17 | Store hours 8.30 - 20.00', '2030-10-17'],
    ['Öffnungszeiten Mo bis Sa 8 - 20 Uhr, gültig bis 31.10.', '2030-10-31'],
  ])('%s → %s', (text, date) => {
    expect(findValidUntil(text, uploadedAt)).toBe(date);
  });

  it.each([
    // ISO, and a later price after the keyword is not a date (3.11 is not 3 November).
    ['Prices valid until 2030-12-01 Bananas 3.11', '2030-12-01'],
    ['Gültig bis 2030-11-30.', '2030-11-30'],
    ['valid until Saturday Bananas 3.11 Apples 4.12', undefined],
    // Ranges: the end applies.
    ['Flyer in effect August 14-20, 2030', '2030-08-20'],
    ['Angebote gültig 14.–20.8.', '2030-08-20'],
    ['SALES From 12/17/2030 To 12/25/2030', '2030-12-25'],
    ['Gültig vom 20.10. bis 26.10.2030', '2030-10-26'],
    ['Offerte valide dal 3 al 12 novembre', '2030-11-12'],
    ['Offres valables du 14 au 20 octobre 2030', '2030-10-20'],
    ['Offres valables du 14 au 20 août 2030', '2030-08-20'],
    // Weekdays' names before the days, ordinal endings, Dutch.
    ['Offres valables du mercredi 17 au mardi 23 décembre 2030', '2030-12-23'],
    ['Valable jusqu’au samedi 20 décembre', '2030-12-20'],
    ['Ofertas válidas de quarta-feira 17 a terça-feira 23 de dezembro', '2030-12-23'],
    ['Offerte valide da lunedì 15 a sabato 20 dicembre', '2030-12-20'],
    ['Prices effective Wed 12/17 thru Tue 12/23 $4.99', '2030-12-23'],
    ['Valid 17th - 23rd December 2030', '2030-12-23'],
    ['Offers valid until 23rd December', '2030-12-23'],
    ['Valid Dec 17th to Dec 23rd', '2030-12-23'],
    ['Du 1er au 7 décembre', '2030-12-07'],
    ['Aanbiedingen geldig van maandag 15 t/m zaterdag 20 december', '2030-12-20'],
    ['Geldig van 1 tot en met 7 mei 2031', '2031-05-07'],
    ['Geldig t/m 3 maart 2031', '2031-03-03'],
    // A month's name whole, its year after it read ("Junho" was "Jun" and "ho"; "maio" "mai" and "o").
    ['Válido até 20 de Junho de 2031', '2031-06-20'],
    ['Ofertas válidas até 17 de maio de 2031', '2031-05-17'],
    ['Promoción válida hasta el 3 de mayo de 2031', '2031-05-03'],
    // Spanish months whose whole names the Italian, English or Portuguese ones do not spell (was: no
    // date read, the flyer given a week from its upload), Dutch ones likewise.
    ['Ofertas válidas del 2 al 8 de diciembre de 2030', '2030-12-08'],
    ['Ofertas válidas del 25 al 30 de noviembre', '2030-11-30'],
    ['Válido hasta el 20 de octubre', '2030-10-20'],
    ['Ofertas válidas del 12 al 18 de septiembre de 2031', '2031-09-18'],
    ['Ofertas válidas del 5 al 11 de setiembre de 2031', '2031-09-11'],
    ['Ofertas válidas del 19 al 25 de junio de 2031', '2031-06-25'],
    ['Precios válidos del 1 al 7 de julio de 2031', '2031-07-07'],
    ['Geldig van 1 tot en met 7 januari', '2031-01-07'],
    ['Geldig t/m 14 augustus 2031', '2031-08-14'],
    // A range across two months, each day with its month's name, no validity word before it (a
    // cover's "Du 28 octobre au 3 novembre"): was no date.
    ['From Monday 28th October to Sunday 3rd November', '2030-11-03'],
    ['Du 28 octobre au 3 novembre 2030', '2030-11-03'],
    ['Del 28 de octubre al 3 de noviembre', '2030-11-03'],
    ['Dal 28 ottobre al 3 novembre', '2030-11-03'],
    ['De 28 de outubro a 3 de novembro', '2030-11-03'],
    // "Prices end" (a UK loyalty card's prices): was no date.
    ['Clubcard Prices end 03/11/30', '2030-11-03'],
    // Tuesday's short name "mar." after a range's word (was: no date); March's "Mar 8" is March.
    ['Du mer. 16 au mar. 22 oct. 2030', '2030-10-22'],
    ['Offerte valide dal mar 15 al dom 20 ottobre', '2030-10-20'],
    ['Valid Mar 8 - Mar 14, 2031', '2031-03-14'],
    // A German calendar week alone: its Saturday (was: a week from the upload). Dates win over it.
    ['Unsere Angebote der KW 42', '2030-10-19'],
    ['Angebote KW42/2030', '2030-10-19'],
    ['Kalenderwoche 43', '2030-10-26'],
    ['KW 42 Angebote gültig vom 14.10. bis 18.10.', '2030-10-18'],
    ['Heizlüfter 2 kW 19,99 €', undefined],
    // OCR's letters for digits in a date; a slashed date over 12 shows the order of the others.
    ['Válido até 25/O4/2031', '2031-04-25'],
    ['Ofertas válidas de 17 a 23/1O', '2030-10-23'],
    ['Valid 10/15 - 10/2l', '2030-10-21'],
    ['Sale Prices Good Wed. Oct. 15 - Tue. Oct. 21', '2030-10-21'],
    // Only the first day printed: the flyer's week runs from it (as the end, offers would expire the day they start).
    ['Angebote gültig ab Montag, 13.10.', '2030-10-19'],
    ['Valid from 10/15', '2030-10-21'],
    ['Válido a partir de 15/10/2030', '2030-10-21'],
    ['Valable à partir du mercredi 15 octobre', '2030-10-21'],
    // …unless another statement prints the last day.
    [
      'Gültig ab 13.10. Frische Bio-Bananen aus Ecuador, Bio-Äpfel aus der Region. Angebote gültig bis 18.10.',
      '2030-10-18',
    ],
    // OCR drops or misreads the û of a display face's "août".
    ['Du 19 au 25 aot 2030', '2030-08-25'],
    ['Du 19 au 25 aoit 2030', '2030-08-25'],
    ['Du 2 au 8 aofit 2030', '2030-08-08'],
    ['Ofertas válidas de 17 a 23/10', '2030-10-23'],
    ['OFERTAS VÁLIDAS PARA 07 E 08/01/31.', '2031-01-08'],
    ['Promoção válida de 14 a 20 de outubro de 2030', '2030-10-20'],
    // Day before month outside North America; month before day with dollars.
    ['As ofertas são válidas até sábado - 25/10/2030 R$ 4,99', '2030-10-25'],
    ['Válido até 11/12 R$ 9,90', '2030-12-11'],
    // "até" alone opens the statement: its accented end is a word's end.
    ['Ofertas até 20/10', '2030-10-20'],
    ['Promoção até 25/10/2030', '2030-10-25'],
    ['Sale ends 11/12 $9.90', '2030-11-12'],
    ['Offerte valide fino al 12/11', '2030-11-12'],
    // Right-to-left lines whose words are laid out left to right: the later date ends the range.
    ['18.06.2030 تا 12.06.2030 از معتبر', '2030-06-18'],
    ['معتبر از 12.06.2030 تا 18.06.2030', '2030-06-18'],
    ['سارية 20/10/2030 إلى 14/10/2030 العروض من', '2030-10-20'],
    ['2030-12-01 تا 2030-11-25 از معتبر', '2030-12-01'],
  ])('%s → %s', (text, date) => {
    expect(findValidUntil(text, uploadedAt)).toBe(date);
  });

  it('a date without year far in the past rolls to the next year; none defaults to a week', () => {
    expect(findValidUntil('gültig bis 05.01.', uploadedAt)).toBe('2031-01-05');
    // …but not months ahead: a flyer is read while it runs ("4/2l" was read as next February).
    expect(findValidUntil('gültig bis 04.05.', uploadedAt)).toBeUndefined();
    expect(findValidUntil('Neue Eröffnungspreise', uploadedAt)).toBeUndefined();
    expect(defaultValidUntil(uploadedAt)).toBe('2030-10-17');
  });
});

describe('flyer reader', () => {
  it.skipIf(!existsSync(REAL_FLYER))('reads the real Aseman flyer (German, row layout)', async () => {
    const offers = await extractAll(readFileSync(REAL_FLYER));
    expect(offers.map(shape)).toEqual([
      {
        product: 'Reis',
        brand: 'Zarnab',
        original_price: 24,
        discounted_price: 20.99,
        unit: '1 Sack (10Kg)',
      },
      {
        product: 'Reis',
        brand: 'Kaspian',
        original_price: 12.5,
        discounted_price: 10.49,
        unit: '1 Sack (5Kg)',
      },
      {
        product: 'Eingelegtes Gemüse',
        brand: '',
        original_price: 7.5,
        discounted_price: 5.49,
        unit: '3 Stück',
      },
      {
        product: 'Persische Pistazien',
        brand: '',
        original_price: 16,
        discounted_price: 13.99,
        unit: '1 Beutel (1kg)',
      },
      {
        product: 'Süßigkeit',
        brand: '',
        original_price: 4.99,
        discounted_price: 3.99,
        unit: '1 Packung (500g)',
      },
      { product: 'Safran', brand: '', original_price: 3, discounted_price: 1.99, unit: '1 Beutel (1g)' },
    ]);
    // No validity is printed: a week from the upload.
    expect(new Set(offers.map((o) => o.validUntil))).toEqual(new Set(['2030-10-17']));
    expect(offers.every((o) => o.page === 1 && o.confidence > 0.5 && o.confidence <= 1)).toBe(true);
  });

  it('reads a row layout with a printed validity range', async () => {
    const flyer = await rowFlyer();
    const offers = await extractAll(flyer.bytes);
    expect(offers.map(shape)).toEqual(flyer.expected);
    expect(offers.every((o) => o.validUntil === '2030-10-17')).toBe(true);
  });

  it('reads a British flyer: loyalty card prices, pence, a validity across two months', async () => {
    // Was: an offer named "Clubcard" at 3.00, no offer at 18p or 2 for 90p, a week from the upload.
    const flyer = await britishFlyer();
    const offers = await extractAll(flyer.bytes);
    const byProduct = (a: { product: string }, b: { product: string }) => a.product.localeCompare(b.product);
    expect(offers.map(shape).sort(byProduct)).toEqual([...flyer.expected].sort(byProduct));
    expect(offers.every((o) => o.validUntil === '2030-11-05')).toBe(true);
  });

  it("tells an observer each page's layout input, which alone parses to the page's offers", async () => {
    const flyer = await rowFlyer();
    const seen: Array<{ page: number; items: readonly LayoutItem[] }> = [];
    const observed = new FlyerReader(new UnpdfReader(), ocr, undefined, undefined, (page, items) =>
      seen.push({ page, items }),
    );
    const offers = await extractAll(flyer.bytes, observed);
    expect(offers.length).toBeGreaterThan(0);
    expect(seen.map((s) => s.page)).toEqual([1]);
    expect(parseLayout(seen[0]!.items).map((o) => o.product)).toEqual(offers.map((o) => o.product));
  });

  it('reads a two-column tile layout (brand and name above the price, was/now, multi-buy, $ after)', async () => {
    const flyer = await tileFlyer();
    const offers = await extractAll(flyer.bytes);
    expect(offers.map(shape)).toEqual(flyer.expected);
    expect(offers.every((o) => o.validUntil === '2030-12-30')).toBe(true);
  });

  it('reads an image-only page through OCR', async () => {
    const bytes = await imageOnlyFlyer(['WEEKLY SPECIALS', 'COFFEE      $7.99', 'TOMATO SOUP     $1.49']);
    const offers = await extractAll(bytes);
    const coffee = offers.find((o) => o.product === 'COFFEE');
    expect(coffee).toMatchObject({ discountedPrice: 7.99, originalPrice: 7.99, page: 1 });
    expect(offers.find((o) => o.product.startsWith('TOMATO'))).toMatchObject({ discountedPrice: 1.49 });
    // OCR output is less certain than a text layer.
    expect(coffee!.confidence).toBeLessThan(0.9);
  });

  it('reads a scan at 150 dpi: a finer one scaled down, a coarser printed page up, a screen-sized page as it is', async () => {
    const widths: number[] = [];
    const recording: OcrEngine = {
      recognize: (image, document) => {
        widths.push(image.readUInt32BE(16)); // PNG IHDR: the width
        return ocr.recognize(image, document);
      },
      readPrices: (image, regions) => ocr.readPrices(image, regions),
      findTallGlyphRuns: (image, minHeight) => ocr.findTallGlyphRuns(image, minHeight),
      close: () => Promise.resolve(),
    };
    const scanned = new FlyerReader(new UnpdfReader(), recording);
    const fine = await extractAll(await scannedFlyer(IMAGE_PAGE_LINES, 300), scanned);
    const coarse = await extractAll(await scannedFlyer(IMAGE_PAGE_LINES, 100), scanned);
    // A phone story set a pixel a point: its type is as tall as it was drawn (4 pixels a dot).
    const story = await extractAll(
      await scannedFlyer(IMAGE_PAGE_LINES, 72, { size: [1080, 1920], dot: 4 }),
      scanned,
    );
    // A4 is 595 points wide: 1240 pixels at 150 dpi, whether scanned at 300 or at 100 dpi.
    expect(widths).toEqual([1240, 1240, 1080]);
    for (const offers of [fine, coarse, story]) {
      const coffee = offers.find((o) => o.product === 'COFFEE');
      expect(coffee).toMatchObject({ discountedPrice: 7.99, page: 1 });
      expect(offers.find((o) => o.product.startsWith('TOMATO'))).toMatchObject({ discountedPrice: 1.49 });
    }
    // Where it is printed, in points: the second line, 20 dots of 1.44 points down from the top.
    for (const offers of [fine, coarse]) {
      const coffee = offers.find((o) => o.product === 'COFFEE')!;
      expect(coffee.box!.y).toBeGreaterThan(20);
      expect(coffee.box!.y).toBeLessThan(40);
    }
  });

  it.each([2.5, -2.5])(
    "reads a price list scanned %s° crooked with each name beside its own price, not the next row's",
    async (degrees) => {
      // Wide rows a line apart: at 2.5° a row's price lies a line lower than its name.
      const rows: Array<[string, number]> = [
        ['APPLES', 1.29],
        ['BUTTER', 3.49],
        ['CARROTS', 2.89],
        ['CHEESE', 5.99],
        ['COFFEE', 7.99],
        ['ONIONS', 1.19],
        ['POTATOES', 2.49],
        ['YOGURT', 4.59],
      ];
      const lines = rows.map(([name, price]) => `    ${name.padEnd(32)}$${price.toFixed(2)}`);
      const offers = await extractAll(
        await scannedFlyer(['    WEEKLY SPECIALS', '', ...lines], 150, { degrees }),
      );
      const paired = rows.filter(([name, price]) =>
        offers.some((o) => o.product === name && o.discountedPrice === price),
      );
      expect(paired.length).toBeGreaterThanOrEqual(6);
      // None with another row's price.
      const prices = new Map(rows);
      for (const offer of offers.filter((o) => prices.has(o.product))) {
        expect(offer.discountedPrice).toBe(prices.get(offer.product));
      }
    },
  );

  it('places the words of a scan slightly crooked by the slope its lines keep (read as scanned, not resampled)', async () => {
    // The engine answers the scan as it is and the slope its lines keep. Rows 20 px apart on a
    // 1240-px scan, 0.8° off: a price 1000 px right of its name lies 14 px lower, nearer the next
    // row's name than its own.
    const slope = Math.tan((0.8 * Math.PI) / 180);
    const rows: Array<[string, string]> = [
      ['BUTTER', '$3.49'],
      ['CHEESE', '$5.99'],
      ['COFFEE', '$7.99'],
    ];
    const word = (text: string, x: number, y: number) => ({
      text,
      x,
      y: y + (x + 40 - 620) * slope,
      width: 80,
      height: 14,
      confidence: 0.95,
    });
    const crooked: OcrEngine = {
      levelled: (image) => Promise.resolve({ png: image, slope }),
      recognize: () =>
        Promise.resolve(
          rows.flatMap(([name, price], i) => [word(name, 60, 200 + i * 20), word(price, 1060, 200 + i * 20)]),
        ),
      close: () => Promise.resolve(),
    };
    const offers = await extractAll(
      await scannedFlyer(['WEEKLY SPECIALS'], 150),
      new FlyerReader(new UnpdfReader(), crooked),
    );
    expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
      ['BUTTER', 3.49],
      ['CHEESE', 5.99],
      ['COFFEE', 7.99],
    ]);
  });

  it.each([
    { quarterTurns: 1, how: 'sideways' },
    { quarterTurns: 2, how: 'upside down' },
    { quarterTurns: 3, how: 'sideways the other way' },
  ] as const)('reads a page scanned $how upright', async ({ quarterTurns }) => {
    // Read as it lay, its lines of type stood on end or upside down: no offer at all.
    const lines = [
      'WEEKLY SPECIALS',
      'COFFEE      $7.99',
      'TOMATO SOUP     $1.49',
      'BUTTER    $3.49',
      'CHEESE     $5.99',
    ];
    const offers = await extractAll(await scannedFlyer(lines, 150, { quarterTurns }));
    expect(offers.find((o) => o.product === 'COFFEE')).toMatchObject({ discountedPrice: 7.99, page: 1 });
    expect(offers.find((o) => o.product === 'CHEESE')).toMatchObject({ discountedPrice: 5.99 });
  });

  it('reads a page scanned in black and white (a 1-bit image) as scanned', async () => {
    const offers = await extractAll(await blackAndWhiteScan(IMAGE_PAGE_LINES, 150));
    expect(offers.find((o) => o.product === 'COFFEE')).toMatchObject({ discountedPrice: 7.99, page: 1 });
    expect(offers.find((o) => o.product.startsWith('TOMATO'))).toMatchObject({ discountedPrice: 1.49 });
  });

  it("reads a scanner's compact PDF: the print a stencil mask over a coarse picture of the paper", async () => {
    const offers = await extractAll(await compactScan(IMAGE_PAGE_LINES, 150));
    expect(offers.find((o) => o.product === 'COFFEE')).toMatchObject({ discountedPrice: 7.99, page: 1 });
    expect(offers.find((o) => o.product.startsWith('TOMATO'))).toMatchObject({ discountedPrice: 1.49 });
  });

  it('reads an image-only page whose picture is JPEG 2000 (pdf.js decodes it in WebAssembly)', async () => {
    const offers = await extractAll(await jpeg2000Flyer());
    expect(offers.find((o) => o.product === 'COFFEE')).toMatchObject({ discountedPrice: 7.99, page: 1 });
    expect(offers.find((o) => o.product.startsWith('TOMATO'))).toMatchObject({ discountedPrice: 1.49 });
  });

  it.runIf(photoFlyerFaceAvailable)(
    'reads a phone-story photo page: small names on labels, white prices on plaques, photos between',
    async () => {
      const story = photoStoryPage(
        [
          { name: 'Tomate Kg', price: 'R$ 4,99' },
          { name: 'Cebola Kg', price: 'R$ 3,59' },
          { name: 'Banana Prata', price: 'R$ 5,49' },
          { name: 'Laranja Pera', price: 'R$ 2,99' },
        ],
        'Válido até 20 de Junho de 2031',
      );
      const offers = await extractAll(await imagePagesPdf([story]));
      expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
        ['Tomate', 4.99],
        ['Cebola', 3.59],
        ['Banana Prata', 5.49],
        ['Laranja Pera', 2.99],
      ]);
      expect(offers.every((o) => o.validUntil === '2031-06-20' && o.unit !== undefined)).toBe(true);
    },
    120_000,
  );

  it.runIf(photoFlyerFaceAvailable)(
    'reads a text page whose offers are card pictures (its text layer: a heading and the validity)',
    async () => {
      const bytes = await cardsPdf(
        [
          { name: 'MANGA TOMY', price: '4,99' },
          { name: 'UVA ITALIA', price: '9,99' },
          { name: 'ABACAXI', price: '6,49' },
        ],
        'SUPER SACOLAO',
        'OFERTAS VALIDAS PARA 07 E 08/01/31',
      );
      const offers = await extractAll(bytes);
      expect(offers.map((o) => [o.product, o.discountedPrice])).toEqual([
        ['MANGA TOMY', 4.99],
        ['UVA ITÁLIA', 9.99], // capitals printed without the accent, given it back by the dictionary
        ['ABACAXI', 6.49],
      ]);
      expect(offers.every((o) => o.validUntil === '2031-01-08')).toBe(true);
      // Where each was read on the page: inside its card (cards are 360 × 450 pt, two by two).
      const [, uva, abacaxi] = offers;
      expect(uva!.box!.x).toBeGreaterThanOrEqual(420);
      expect(uva!.box!.y + uva!.box!.height).toBeLessThan(1440 - 710 + 10);
      expect(abacaxi!.box!.x + abacaxi!.box!.width).toBeLessThan(400);
      expect(abacaxi!.box!.y).toBeGreaterThan(1440 - 710);
    },
    120_000,
  );

  it.runIf(photoFlyerFaceAvailable)(
    'reads an image-only page made of several pictures, each offer where its picture is placed',
    async () => {
      const tiles = [
        { name: 'MANGA TOMY', price: '4,99' },
        { name: 'UVA ITALIA', price: '9,99' },
        { name: 'ABACAXI', price: '6,49' },
      ];
      // No text layer: every picture alone would be read as if it were the whole page.
      const offers = await extractAll(await cardsPdf(tiles, '', '', { textLayer: false }));
      // Three names alone do not tell the page's language, whose dictionary would give "ITÁLIA" back.
      const plain = (name: string) => name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      expect(offers.map((o) => [plain(o.product), o.discountedPrice])).toEqual(
        tiles.map((t) => [t.name, Number(t.price.replace(',', '.'))]),
      );
      const [manga, uva, abacaxi] = offers;
      expect(manga!.box!.x + manga!.box!.width).toBeLessThan(400);
      expect(uva!.box!.x).toBeGreaterThanOrEqual(420);
      expect(abacaxi!.box!.y).toBeGreaterThan(1440 - 710);
    },
    120_000,
  );

  it('reads a page whose text is only vector outlines by drawing it and running OCR', async () => {
    const bytes = await vectorOnlyFlyer(['WEEKLY SPECIALS', 'COFFEE      $7.99', 'TOMATO SOUP     $1.49']);
    const offers = await extractAll(bytes);
    expect(offers.find((o) => o.product === 'COFFEE')).toMatchObject({ discountedPrice: 7.99, page: 1 });
    expect(offers.find((o) => o.product.startsWith('TOMATO'))).toMatchObject({ discountedPrice: 1.49 });
  });

  it('uses the configured model when it answers, and falls back to the parser when it fails', async () => {
    const fake = await startFakeLlm('openai');
    try {
      const llm = createLlmProvider({
        provider: 'openai',
        baseUrl: fake.baseUrl,
        apiKey: undefined,
        timeoutMs: 5_000,
        chatModel: 'm',
        recipeModel: 'm',
      });
      const withModel = new FlyerReader(new UnpdfReader(), undefined, new LlmPageOffers(llm));
      const flyer = await rowFlyer();
      fake.script({
        text: JSON.stringify({
          offers: [
            {
              product: 'Irische Butter',
              brand: 'Kerrygold',
              original_price: 3.49,
              discounted_price: 2.49,
              unit: '250 g',
            },
          ],
        }),
      });
      const fromModel = await extractAll(flyer.bytes, withModel);
      expect(fromModel.map(shape)).toEqual([
        {
          product: 'Irische Butter',
          brand: 'Kerrygold',
          original_price: 3.49,
          discounted_price: 2.49,
          unit: '250 g',
        },
      ]);
      // The page text went to the model, one visual line per line, with the offers' JSON Schema as
      // structured output.
      expect(JSON.stringify(fake.requests[0]?.body)).toContain('Butter (Kerrygold) | 250 g');
      expect(fake.requests[0]?.body.response_format).toMatchObject({
        type: 'json_schema',
        json_schema: { name: 'flyer_offers' },
      });
      expect(fake.requests[0]?.body.response_format.json_schema.schema.properties).toHaveProperty(
        'valid_until',
      );

      // The validity the model reads applies: the page's to every offer, an offer's own to that one.
      fake.script({
        text: JSON.stringify({
          valid_until: '2030-10-24',
          offers: [
            { product: 'Butter', discounted_price: 2.49, valid_until: null },
            { product: 'Milch', discounted_price: 0.99, valid_until: '2030-10-20' },
          ],
        }),
      });
      const dated = await extractAll(flyer.bytes, withModel);
      expect(dated.map((o) => o.validUntil)).toEqual(['2030-10-24', '2030-10-20']);

      fake.script({ status: 500 });
      const fallback = await extractAll(flyer.bytes, withModel);
      expect(fallback.map(shape)).toEqual(flyer.expected);
    } finally {
      await fake.close();
    }
  });

  for (const protocol of ['openai', 'anthropic'] as const) {
    it(`reads an image-only page with a vision model (${protocol} protocol), OCR when it fails`, async () => {
      const fake = await startFakeLlm(protocol);
      try {
        const llm = createLlmProvider({
          provider: protocol,
          baseUrl: fake.baseUrl,
          apiKey: 'k',
          timeoutMs: 5_000,
          chatModel: undefined,
          recipeModel: undefined,
          visionModel: 'eyes',
        });
        expect(llm.isConfigured('vision')).toBe(true);
        const seeing = new FlyerReader(new UnpdfReader(), ocr, undefined, new VisionPageOffers(llm));
        const bytes = await imageOnlyFlyer(['WEEKLY SPECIALS', 'COFFEE      $7.99', 'TOMATO SOUP     $1.49']);
        fake.script({
          text: JSON.stringify({
            offers: [
              { product: 'Coffee', brand: '', original_price: 9.99, discounted_price: 7.99, unit: '' },
            ],
          }),
        });
        const seen = await extractAll(bytes, seeing);
        expect(seen.map(shape)).toEqual([
          { product: 'Coffee', brand: '', original_price: 9.99, discounted_price: 7.99, unit: '' },
        ]);
        expect(seen[0]!.confidence).toBeLessThan(0.9);
        // The page went to the model as a PNG picture in the protocol's own image form.
        const request = JSON.stringify(fake.requests[0]?.body);
        expect(fake.requests[0]?.body.model).toBe('eyes');
        if (protocol === 'openai') expect(request).toContain('"url":"data:image/png;base64,iVBORw0KGgo');
        else
          expect(request).toMatch(
            /"type":"image","source":\{"type":"base64","media_type":"image\/png","data":"iVBORw0KGgo/,
          );
        // Compressed to be sent: the reader hands pictures on within the process as stored PNGs.
        const sent = Buffer.from(/(iVBORw0KGgo[A-Za-z0-9+/=]+)/.exec(request)![1]!, 'base64');
        const width = sent.readUInt32BE(16);
        const height = sent.readUInt32BE(20);
        expect(width * height).toBeGreaterThan(100_000);
        expect(sent.length).toBeLessThan((width * height) / 10);

        fake.script({ status: 500 }, { status: 500 });
        const read = await extractAll(bytes, seeing);
        expect(read.find((o) => o.product === 'COFFEE')).toMatchObject({ discountedPrice: 7.99 });
      } finally {
        await fake.close();
      }
    });
  }

  it('a text model is never used for pictures: VISION_MODEL unset means not configured', () => {
    const llm = createLlmProvider({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: undefined,
      timeoutMs: 1_000,
      chatModel: 'text',
      recipeModel: 'text',
    });
    expect(llm.isConfigured('vision')).toBe(false);
    expect(() => llm.assertConfigured('vision')).toThrow(/VISION_MODEL/);
  });
});
