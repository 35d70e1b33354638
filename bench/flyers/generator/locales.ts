/**
 * How flyers of one market print: product names in the language, the currency and its place, the
 * decimal mark, weight units, the wording of member, regular and "was" prices, multi-buys and the
 * validity line. Prices drawn by the generator follow these conventions; labels keep the values.
 */
export interface ProductSpec {
  name: string;
  /** Sold by weight (per lb / per kg) or by piece; otherwise the printed pack size. */
  sold: 'weight' | 'each' | string;
  min: number;
  max: number;
}

export interface Locale {
  code: string;
  language: string;
  currency: string;
  rtl: boolean;
  digits: 'latin' | 'arabic-indic' | 'persian';
  stores: string[];
  /** Weight unit of produce and meat, as the label's unit and as printed after the price. */
  weight: { label: string; printed: string };
  each: { label: string; printed: string };
  symbol: string;
  symbolBefore: boolean;
  decimal: '.' | ',';
  /** Whether big prices print their cents raised and small ("$1⁹⁹"). */
  superscriptCents: boolean;
  /** A price under one printed in the currency's hundredths with this mark ("45p"), as British flyers do. */
  subunit?: string;
  member: (regular: string) => string;
  was: (old: string) => string;
  save: (amount: string) => string;
  multibuy: (count: string, total: string) => string;
  validity: (from: Date, until: Date) => string;
  /** Lines with numbers that are not prices (phone, hours, page numbers). */
  footer: (page: number) => string;
  products: ProductSpec[];
}

const MONTHS_EN = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MONTHS_FR = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];
const MONTHS_ES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];
const dd = (d: Date) => String(d.getUTCDate()).padStart(2, '0');
const mm = (d: Date) => String(d.getUTCMonth() + 1).padStart(2, '0');
/** "August 14-20", or across two months "January 26 - February 1", as North American flyers print it. */
const monthDayRange = (f: Date, u: Date) =>
  f.getUTCMonth() === u.getUTCMonth()
    ? `${MONTHS_EN[f.getUTCMonth()]} ${f.getUTCDate()}-${u.getUTCDate()}`
    : `${MONTHS_EN[f.getUTCMonth()]} ${f.getUTCDate()} - ${MONTHS_EN[u.getUTCMonth()]} ${u.getUTCDate()}`;
/** "1st", "2nd", "23rd", "11th": a British day. */
const ordinal = (d: Date) => {
  const day = d.getUTCDate();
  const suffix =
    day % 10 === 1 && day !== 11
      ? 'st'
      : day % 10 === 2 && day !== 12
        ? 'nd'
        : day % 10 === 3 && day !== 13
          ? 'rd'
          : 'th';
  return `${day}${suffix}`;
};

export const LOCALES: Locale[] = [
  {
    code: 'en-US',
    language: 'en',
    currency: 'USD',
    rtl: false,
    digits: 'latin',
    stores: ['Harvest Fresh Market', 'Valley Foods', 'Corner Grocer'],
    weight: { label: 'per lb', printed: '/lb' },
    each: { label: 'each', printed: 'ea.' },
    symbol: '$',
    symbolBefore: true,
    decimal: '.',
    superscriptCents: true,
    member: (r) => `Regular price ${r}`,
    was: (o) => `Was ${o}`,
    save: (a) => `SAVE ${a}`,
    multibuy: (n, t) => `${n}/${t}`,
    validity: (f, u) => `Prices effective ${monthDayRange(f, u)}, ${u.getUTCFullYear()}`,
    footer: (p) => `Open 7am-10pm daily · (708) 555-0${140 + p} · Page ${p}`,
    products: [
      { name: 'Boneless Chicken Breast', sold: 'weight', min: 1.99, max: 4.99 },
      { name: 'Red Seedless Grapes', sold: 'weight', min: 1.49, max: 2.99 },
      { name: 'Bananas', sold: 'weight', min: 0.49, max: 0.79 },
      { name: 'Ground Beef 80% Lean', sold: 'weight', min: 3.49, max: 5.99 },
      { name: 'Pork Shoulder Roast', sold: 'weight', min: 1.29, max: 2.99 },
      { name: 'Hass Avocados', sold: 'each', min: 0.79, max: 1.49 },
      { name: 'Green Cabbage', sold: 'weight', min: 0.39, max: 0.89 },
      { name: 'Whole Milk Gallon', sold: '1 gal', min: 2.99, max: 4.49 },
      { name: 'Large Brown Eggs', sold: '12 ct', min: 2.49, max: 4.99 },
      { name: 'Cheddar Cheese Block', sold: '8 oz', min: 2.29, max: 3.99 },
      { name: 'Long Grain White Rice', sold: '5 lb', min: 3.99, max: 6.99 },
      { name: 'Crushed Tomatoes', sold: '28 oz', min: 1.19, max: 2.49 },
      { name: 'Orange Juice', sold: '52 fl oz', min: 2.99, max: 4.99 },
      { name: 'Atlantic Salmon Fillet', sold: 'weight', min: 7.99, max: 11.99 },
      { name: 'Sweet Potatoes', sold: 'weight', min: 0.69, max: 1.29 },
      { name: 'Black Beans', sold: '15 oz', min: 0.79, max: 1.49 },
    ],
  },
  {
    code: 'en-CA',
    language: 'en',
    currency: 'CAD',
    rtl: false,
    digits: 'latin',
    stores: ['Northern Basket', 'Maple Discount Foods'],
    weight: { label: 'per lb', printed: '/lb' },
    each: { label: 'each', printed: 'ea.' },
    symbol: '$',
    symbolBefore: true,
    decimal: '.',
    superscriptCents: true,
    member: (r) => `without member card ${r}`,
    was: (o) => `Reg. ${o}`,
    save: (a) => `SAVE ${a}`,
    multibuy: (n, t) => `${n} for ${t}`,
    validity: (f, u) => `Flyer in effect ${monthDayRange(f, u)}, ${u.getUTCFullYear()}`,
    footer: (p) => `Store hours 8 a.m. to 9 p.m. · 1-800-555-0199 · ${p}`,
    products: [
      { name: 'Chilled Boneless Pork Loin', sold: 'weight', min: 1.99, max: 3.49 },
      { name: 'Fresh Strawberries', sold: '454 g', min: 2.49, max: 4.99 },
      { name: 'Russet Potatoes', sold: '10 lb bag', min: 2.99, max: 4.99 },
      { name: 'Honeycrisp Apples', sold: 'weight', min: 1.49, max: 2.99 },
      { name: 'Extra Lean Ground Beef', sold: 'weight', min: 4.49, max: 6.99 },
      { name: 'Butter Salted', sold: '454 g', min: 4.99, max: 6.99 },
      { name: 'Plain Greek Yogurt', sold: '750 g', min: 3.99, max: 5.99 },
      { name: 'Whole Wheat Bread', sold: '675 g', min: 1.99, max: 3.49 },
      { name: 'Chicken Drumsticks', sold: 'weight', min: 1.29, max: 2.49 },
      { name: 'Broccoli Crowns', sold: 'weight', min: 0.99, max: 1.99 },
      { name: 'Pasta Spaghetti', sold: '900 g', min: 1.49, max: 2.99 },
      { name: 'Cucumbers', sold: 'each', min: 0.59, max: 1.29 },
    ],
  },
  {
    code: 'fr-FR',
    language: 'fr',
    currency: 'EUR',
    rtl: false,
    digits: 'latin',
    stores: ['Marché du Quartier', 'Super Frais'],
    weight: { label: 'le kg', printed: 'le kg' },
    each: { label: "l'unité", printed: "l'unité" },
    symbol: '€',
    symbolBefore: false,
    decimal: ',',
    superscriptCents: true,
    member: (r) => `Prix sans carte ${r}`,
    was: (o) => `Au lieu de ${o}`,
    save: (a) => `ÉCONOMISEZ ${a}`,
    multibuy: (n, t) => `${n} pour ${t}`,
    validity: (f, u) =>
      `Du ${f.getUTCDate()} au ${u.getUTCDate()} ${MONTHS_FR[u.getUTCMonth()]} ${u.getUTCFullYear()}`,
    footer: (p) => `Ouvert du lundi au samedi 8h30-20h · 01 45 67 89 0${p}`,
    products: [
      { name: 'Filet de poulet', sold: 'weight', min: 7.9, max: 12.9 },
      { name: 'Tomates grappe', sold: 'weight', min: 1.99, max: 3.49 },
      { name: 'Camembert au lait cru', sold: '250 g', min: 1.79, max: 3.29 },
      { name: 'Pommes Golden', sold: 'weight', min: 1.49, max: 2.49 },
      { name: 'Baguette tradition', sold: 'each', min: 0.89, max: 1.3 },
      { name: 'Beurre doux', sold: '250 g', min: 1.99, max: 2.99 },
      { name: 'Yaourt nature', sold: '4 x 125 g', min: 0.99, max: 1.89 },
      { name: 'Lentilles vertes', sold: '500 g', min: 1.29, max: 2.49 },
      { name: 'Saumon fumé', sold: '4 tranches', min: 3.99, max: 6.49 },
      { name: 'Courgettes', sold: 'weight', min: 1.49, max: 2.99 },
      { name: 'Huile d’olive vierge extra', sold: '1 l', min: 5.99, max: 9.99 },
      { name: 'Carottes', sold: '1 kg', min: 0.99, max: 1.79 },
    ],
  },
  {
    code: 'de-DE',
    language: 'de',
    currency: 'EUR',
    rtl: false,
    digits: 'latin',
    stores: ['Frischmarkt Müller', 'Nahkauf am Eck'],
    weight: { label: 'je kg', printed: 'je kg' },
    each: { label: 'je Stück', printed: 'je Stück' },
    symbol: '€',
    symbolBefore: false,
    decimal: ',',
    superscriptCents: true,
    member: (r) => `ohne Kundenkarte ${r}`,
    was: (o) => `statt ${o}`,
    save: (a) => `SIE SPAREN ${a}`,
    multibuy: (n, t) => `${n} für ${t}`,
    validity: (f, u) => `Gültig vom ${dd(f)}.${mm(f)}. bis ${dd(u)}.${mm(u)}.${u.getUTCFullYear()}`,
    footer: (p) => `Mo-Sa 7-21 Uhr · Tel. 030 1234 56${p} · Seite ${p}`,
    products: [
      { name: 'Hähnchenbrustfilet', sold: 'weight', min: 7.99, max: 12.99 },
      { name: 'Rispentomaten', sold: 'weight', min: 1.99, max: 3.49 },
      { name: 'Gouda jung', sold: '400 g', min: 2.49, max: 3.99 },
      { name: 'Äpfel Elstar', sold: '1 kg', min: 1.49, max: 2.49 },
      { name: 'Vollkornbrot', sold: '500 g', min: 1.29, max: 2.49 },
      { name: 'Deutsche Markenbutter', sold: '250 g', min: 1.79, max: 2.69 },
      { name: 'Frische Vollmilch', sold: '1 l', min: 0.99, max: 1.49 },
      { name: 'Rinderhackfleisch', sold: 'weight', min: 7.99, max: 10.99 },
      { name: 'Speisekartoffeln', sold: '2,5 kg', min: 1.99, max: 3.49 },
      { name: 'Paprika rot', sold: 'each', min: 0.59, max: 0.99 },
      { name: 'Spaghetti', sold: '500 g', min: 0.79, max: 1.49 },
      { name: 'Bananen', sold: 'weight', min: 1.19, max: 1.79 },
    ],
  },
  {
    code: 'es-ES',
    language: 'es',
    currency: 'EUR',
    rtl: false,
    digits: 'latin',
    stores: ['Supermercado La Plaza', 'Frutas Vega'],
    weight: { label: 'el kg', printed: '/kg' },
    each: { label: 'la unidad', printed: 'la unidad' },
    symbol: '€',
    symbolBefore: false,
    decimal: ',',
    superscriptCents: false,
    member: (r) => `Sin tarjeta ${r}`,
    was: (o) => `Antes ${o}`,
    save: (a) => `AHORRA ${a}`,
    multibuy: (n, t) => `${n} x ${t}`,
    validity: (f, u) =>
      `Ofertas válidas del ${f.getUTCDate()} al ${u.getUTCDate()} de ${MONTHS_ES[u.getUTCMonth()]} de ${u.getUTCFullYear()}`,
    footer: (p) => `Horario 9:00-21:30 · Tel. 91 555 12 3${p}`,
    products: [
      { name: 'Pechuga de pollo', sold: 'weight', min: 5.99, max: 8.99 },
      { name: 'Naranjas de mesa', sold: '2 kg', min: 1.99, max: 3.49 },
      { name: 'Aceite de oliva virgen extra', sold: '1 l', min: 6.49, max: 9.99 },
      { name: 'Jamón serrano', sold: '200 g', min: 2.49, max: 4.99 },
      { name: 'Queso manchego curado', sold: 'weight', min: 12.9, max: 18.9 },
      { name: 'Lechuga iceberg', sold: 'each', min: 0.69, max: 1.19 },
      { name: 'Garbanzos cocidos', sold: '400 g', min: 0.59, max: 1.19 },
      { name: 'Merluza fresca', sold: 'weight', min: 7.99, max: 11.99 },
      { name: 'Pimientos rojos', sold: 'weight', min: 1.99, max: 2.99 },
      { name: 'Arroz redondo', sold: '1 kg', min: 0.99, max: 1.79 },
      { name: 'Leche semidesnatada', sold: '6 x 1 l', min: 4.49, max: 6.49 },
    ],
  },
  {
    code: 'pt-BR',
    language: 'pt',
    currency: 'BRL',
    rtl: false,
    digits: 'latin',
    stores: ['Supermercado Bom Preço', 'Mercado Central'],
    weight: { label: 'kg', printed: 'kg' },
    each: { label: 'unid.', printed: 'unid.' },
    symbol: 'R$',
    symbolBefore: true,
    decimal: ',',
    superscriptCents: true,
    member: (r) => `Sem cartão ${r}`,
    was: (o) => `De ${o} por`,
    save: (a) => `ECONOMIZE ${a}`,
    multibuy: (n, t) => `Leve ${n} por ${t}`,
    validity: (f, u) => `Ofertas válidas de ${dd(f)}/${mm(f)} a ${dd(u)}/${mm(u)}/${u.getUTCFullYear()}`,
    footer: (p) => `Atendimento (19) 3555-012${p} · Seg a sáb 7h às 22h`,
    products: [
      { name: 'Arroz Tipo 1', sold: '5 kg', min: 19.9, max: 29.9 },
      { name: 'Feijão Carioca', sold: '1 kg', min: 5.99, max: 8.99 },
      { name: 'Filé de Peito de Frango', sold: 'weight', min: 14.9, max: 22.9 },
      { name: 'Banana Nanica', sold: 'weight', min: 3.49, max: 5.99 },
      { name: 'Café Torrado e Moído', sold: '500 g', min: 14.9, max: 24.9 },
      { name: 'Óleo de Soja', sold: '900 ml', min: 5.49, max: 8.49 },
      { name: 'Leite Integral', sold: '1 l', min: 3.99, max: 5.99 },
      { name: 'Açúcar Refinado', sold: '1 kg', min: 3.49, max: 5.49 },
      { name: 'Tomate Italiano', sold: 'weight', min: 4.99, max: 8.99 },
      { name: 'Contrafilé Bovino', sold: 'weight', min: 39.9, max: 54.9 },
      { name: 'Queijo Mussarela', sold: 'weight', min: 29.9, max: 44.9 },
      { name: 'Macarrão Espaguete', sold: '500 g', min: 2.99, max: 5.49 },
    ],
  },
  {
    code: 'fa-DE',
    language: 'fa',
    currency: 'EUR',
    rtl: true,
    digits: 'persian',
    stores: ['فروشگاه آسمان', 'سوپرمارکت پارس'],
    weight: { label: 'کیلو', printed: 'کیلو' },
    each: { label: 'عدد', printed: 'عدد' },
    symbol: '€',
    symbolBefore: false,
    decimal: ',',
    superscriptCents: false,
    member: (r) => `بدون کارت ${r}`,
    was: (o) => `قیمت قبلی ${o}`,
    save: (a) => `تخفیف ${a}`,
    multibuy: (n, t) => `${n} عدد ${t}`,
    validity: (f, u) =>
      `معتبر از ${dd(f)}.${mm(f)}.${f.getUTCFullYear()} تا ${dd(u)}.${mm(u)}.${u.getUTCFullYear()}`,
    footer: (p) => `تلفن 030 555 01${p}`,
    products: [
      { name: 'برنج ایرانی', sold: '4,5 کیلو', min: 19.9, max: 34.9 },
      { name: 'زعفران', sold: '1 گرم', min: 6.99, max: 9.99 },
      { name: 'خرما مضافتی', sold: '600 گرم', min: 2.99, max: 4.99 },
      { name: 'پنیر لیقوان', sold: '400 گرم', min: 4.49, max: 6.99 },
      { name: 'چای ایرانی', sold: '500 گرم', min: 5.99, max: 9.99 },
      { name: 'لوبیا چیتی', sold: '900 گرم', min: 2.49, max: 3.99 },
      { name: 'ماست موسیر', sold: '500 گرم', min: 1.99, max: 3.29 },
      { name: 'پسته', sold: '500 گرم', min: 9.99, max: 14.99 },
      { name: 'گوشت گوسفندی', sold: 'weight', min: 14.9, max: 19.9 },
      { name: 'نان بربری', sold: 'each', min: 1.49, max: 2.49 },
    ],
  },
  {
    code: 'ar-AE',
    language: 'ar',
    currency: 'AED',
    rtl: true,
    digits: 'arabic-indic',
    stores: ['سوق الخير', 'هايبرماركت الواحة'],
    weight: { label: 'كيلو', printed: 'كيلو' },
    each: { label: 'حبة', printed: 'حبة' },
    symbol: 'درهم',
    symbolBefore: false,
    decimal: '.',
    superscriptCents: false,
    member: (r) => `بدون البطاقة ${r}`,
    was: (o) => `السعر السابق ${o}`,
    save: (a) => `وفر ${a}`,
    multibuy: (n, t) => `${n} حبة ${t}`,
    validity: (f, u) =>
      `العروض سارية من ${dd(f)}/${mm(f)}/${f.getUTCFullYear()} إلى ${dd(u)}/${mm(u)}/${u.getUTCFullYear()}`,
    footer: (p) => `هاتف 04 555 01${p}`,
    products: [
      { name: 'أرز بسمتي', sold: '5 كغ', min: 24.95, max: 39.95 },
      { name: 'دجاج طازج', sold: 'weight', min: 12.5, max: 18.95 },
      { name: 'تمر خلاص', sold: '1 كغ', min: 14.95, max: 24.95 },
      { name: 'حليب طازج', sold: '2 لتر', min: 6.5, max: 9.95 },
      { name: 'طماطم', sold: 'weight', min: 2.95, max: 5.5 },
      { name: 'زيت زيتون', sold: '1 لتر', min: 19.95, max: 32.95 },
      { name: 'لبنة', sold: '400 غرام', min: 7.5, max: 11.95 },
      { name: 'خيار', sold: 'weight', min: 2.5, max: 4.95 },
      { name: 'عدس أحمر', sold: '1 كغ', min: 5.95, max: 8.95 },
      { name: 'خبز عربي', sold: 'each', min: 2.5, max: 4.5 },
    ],
  },
  {
    // British: pence under a pound ("45p"), a loyalty card's regular price, "Any 3 for £5".
    code: 'en-GB',
    language: 'en',
    currency: 'GBP',
    rtl: false,
    digits: 'latin',
    stores: ['High Street Grocer', 'Village Larder'],
    weight: { label: 'per kg', printed: 'per kg' },
    each: { label: 'each', printed: 'each' },
    symbol: '£',
    symbolBefore: true,
    decimal: '.',
    superscriptCents: false,
    subunit: 'p',
    member: (r) => `Regular Price ${r}`,
    was: (o) => `Was ${o}`,
    save: (a) => `Save ${a}`,
    multibuy: (n, t) => `Any ${n} for ${t}`,
    validity: (f, u) =>
      `Offers valid from ${ordinal(f)} ${MONTHS_EN[f.getUTCMonth()]} until ${ordinal(u)} ${MONTHS_EN[u.getUTCMonth()]} ${u.getUTCFullYear()}`,
    footer: (p) => `Open 7am - 10pm · 0161 496 0${100 + p} · Page ${p}`,
    products: [
      { name: 'Semi Skimmed Milk', sold: '4 pints', min: 1.25, max: 1.75 },
      { name: 'Loose Bananas', sold: 'each', min: 0.15, max: 0.25 },
      { name: 'British Chicken Breast Fillets', sold: 'weight', min: 5.5, max: 8 },
      { name: 'Baked Beans', sold: '415g', min: 0.45, max: 0.95 },
      { name: 'Mature Cheddar', sold: '400g', min: 2.5, max: 4 },
      { name: 'Sliced White Bread', sold: '800g', min: 0.75, max: 1.4 },
      { name: 'Free Range Eggs', sold: '12 pack', min: 2.2, max: 3.5 },
      { name: 'Carrots', sold: '1kg', min: 0.4, max: 0.8 },
      { name: 'Pork Sausages', sold: '454g', min: 1.5, max: 3 },
      { name: 'Salted Butter', sold: '250g', min: 1.8, max: 2.6 },
      { name: 'Cherry Tomatoes', sold: '250g', min: 0.8, max: 1.5 },
      { name: 'Basmati Rice', sold: '1kg', min: 1.5, max: 3 },
      { name: 'Broccoli', sold: 'each', min: 0.5, max: 0.9 },
      { name: 'Scottish Salmon Fillets', sold: '240g', min: 3, max: 4.5 },
    ],
  },
];

const DIGITS: Record<Locale['digits'], string> = {
  latin: '0123456789',
  'arabic-indic': '٠١٢٣٤٥٦٧٨٩',
  persian: '۰۱۲۳۴۵۶۷۸۹',
};

/** Digits of the locale's script. */
export function localDigits(text: string, locale: Locale): string {
  if (locale.digits === 'latin') return text;
  return text.replace(/\d/g, (d) => DIGITS[locale.digits][Number(d)]!);
}

/** "2.99", "2,99" in the locale's digits, without the currency. */
export function amount(value: number, locale: Locale): string {
  return localDigits(value.toFixed(2).replace('.', locale.decimal), locale);
}

/** "$2.99", "2,99 €", "R$ 2,99", "۲,۹۹ €". */
export function money(value: number, locale: Locale): string {
  if (locale.subunit && value < 1)
    return `${localDigits(String(Math.round(value * 100)), locale)}${locale.subunit}`;
  const a = amount(value, locale);
  if (!locale.symbolBefore) return `${a} ${locale.symbol}`;
  return locale.symbol.length > 1 ? `${locale.symbol} ${a}` : `${locale.symbol}${a}`;
}

/** A whole amount as multi-buys print it: "$5", "5 €", "R$ 10". */
export function wholeMoney(value: number, locale: Locale): string {
  if (locale.subunit && value < 1) return money(value, locale);
  const a = localDigits(String(value), locale);
  if (!locale.symbolBefore) return `${a} ${locale.symbol}`;
  return locale.symbol.length > 1 ? `${locale.symbol} ${a}` : `${locale.symbol}${a}`;
}
