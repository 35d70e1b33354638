import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { practicePage } from './practice-page.ts';
import { SPELLING_LANGUAGES, SpellingCorrector } from './spelling.ts';
import { isPersian, pageLanguage, TesseractEngine } from './tesseract-engine.ts';
import type { OcrDocument, OcrWord } from './ocr.ts';

const ARABIC_FACE = '/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf';
const LATIN_FACE = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const engine = new TesseractEngine();
afterAll(() => engine.close());

function page(lines: string[], face: string, rtl: boolean): Buffer {
  // One family name per face: a name registered twice keeps drawing with its first face.
  const family = rtl ? 'ArabicPageFace' : 'LatinPageFace';
  GlobalFonts.registerFromPath(face, family);
  const canvas = createCanvas(1000, 80 + lines.length * 70);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#111';
  g.font = `bold 36px ${family}`;
  g.direction = rtl ? 'rtl' : 'ltr';
  g.textAlign = rtl ? 'right' : 'left';
  lines.forEach((line, i) => g.fillText(line, rtl ? 960 : 40, 70 + i * 70));
  return canvas.toBuffer('image/png');
}

describe.runIf(existsSync(ARABIC_FACE))('TesseractEngine on other scripts', () => {
  it('reads a Persian page that English cannot read, with the Persian and Arabic models', async () => {
    const words = await engine.recognize(
      page(['پنیر لیقوان ۴۰۰ گرم', 'چای ایرانی ۵۰۰ گرم', 'زعفران یک گرم', 'خرما مضافتی'], ARABIC_FACE, true),
    );
    const text = words.map((w) => w.text).join(' ');
    expect(text).toMatch(/زعفران/);
    expect(text).toMatch(/مضافتی|مضافتي/);
    expect(words.filter((w) => w.confidence >= 0.7).length).toBeGreaterThanOrEqual(6);
  }, 60_000);

  it('reads a Persian name line headed by a word that is a food but for its mark as that food', async () => {
    // "جای" (a place) is what OCR makes of "چای" (tea): heading a name, the food; in a phrase, the word.
    const lines = ['جای ایرانی', 'پنیر لیقوان ۴۰۰ گرم', 'به جای شکر ۵۰۰ گرم'];
    const withFoods = new TesseractEngine({
      preferredSpellings: (language) => (language === 'fa' ? ['چای', 'شکر'] : []),
    });
    try {
      const read = (await withFoods.recognize(page(lines, ARABIC_FACE, true))).map((w) => w.text);
      expect(read.filter((t) => t === 'چای')).toHaveLength(1);
      expect(read.some((t) => /^جا[یى]$/u.test(t))).toBe(true);
    } finally {
      await withFoods.close();
    }
  }, 60_000);
});

describe('telling a Persian page from an Arabic one', () => {
  const words = (text: string): OcrWord[] =>
    text.split(' ').map((t, i) => ({ text: t, x: i * 50, y: 0, width: 40, height: 20, confidence: 0.9 }));

  it('by Persian letters against ة and the article, not against the Arabic model’s final ى', () => {
    // A Persian page as the Arabic model reads it: final yeh as ى, kaf as ك, marks lost.
    expect(isPersian(words('جاى ایرانی لوبيا جيتى گرم مضافتى گرم كوسفندى گرم بدون عدد'))).toBe(true);
    expect(isPersian(words('العروض سارية حليب طازج البطاقة لبنة گرم دجاج على گرم'))).toBe(false);
    expect(isPersian(words('دجاج طازج خيار'))).toBe(false);
  });
});

describe.runIf(existsSync(ARABIC_FACE))('TesseractEngine on Arabic-script display prices', () => {
  it('reads big Arabic-Indic prices with the digit reader, in Western digits, settled', async () => {
    GlobalFonts.registerFromPath(ARABIC_FACE, 'ArabicPageFace');
    const canvas = createCanvas(1000, 560);
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.direction = 'rtl';
    g.textAlign = 'right';
    const tiles: Array<[string, string, number]> = [
      ['دجاج طازج', '١٤.٢٩ درهم', 960],
      ['لبنة', '٩.٢٩ درهم', 460],
    ];
    for (const [name, price, right] of tiles) {
      g.fillStyle = '#111';
      g.font = 'bold 36px ArabicPageFace';
      g.fillText(name, right, 80);
      g.fillText('السعر السابق ١٦.٧٩ درهم', right, 150);
      g.fillStyle = '#c2185b';
      g.font = 'bold 84px ArabicPageFace';
      g.fillText(price, right - 40, 330);
    }
    const words = await engine.recognize(canvas.toBuffer('image/png'));
    const prices = words.filter((w) => w.settled).map((w) => w.text);
    expect(prices).toEqual(expect.arrayContaining(['14.29', '9.29']));
    // Their currency and the names stay as OCR read them.
    expect(words.map((w) => w.text).join(' ')).toMatch(/درهم/);
  }, 60_000);
});

describe.runIf(existsSync(LATIN_FACE))('TesseractEngine on Latin-script languages', () => {
  it('reads a Portuguese page with its accents (read in English, given back by the dictionary)', async () => {
    const words = await engine.recognize(
      page(
        [
          'Feijão Carioca 1 kg',
          'Macarrão com ovos',
          'Leve 3 pague 2 cada unidade',
          'Ofertas válidas até sábado',
        ],
        LATIN_FACE,
        false,
      ),
    );
    const text = words.map((w) => w.text).join(' ');
    expect(text).toMatch(/Feijão/);
    expect(text).toMatch(/Macarrão/);
  }, 60_000);

  it.each([
    {
      page: "a Portuguese page's (MACA, a stretcher too)",
      language: 'pt' as const,
      food: 'maçã',
      lines: ['MACA FUJI kg', 'Feijão Carioca 1 kg', 'Ofertas válidas até sábado', 'Leve 3 pague 2'],
      read: 'MACA',
      spelt: 'MAÇÃ',
    },
    {
      page: "a German page's, German having no dictionary here,",
      language: 'de' as const,
      food: 'hähnchenbrustfilet',
      lines: ['HAHNCHENBRUSTFILET je kg', 'Angebote gultig bis Samstag', 'Nur mit Kundenkarte', 'statt 3,99'],
      read: 'HAHNCHENBRUSTFILET',
      spelt: 'HÄHNCHENBRUSTFILET',
    },
  ])(
    'spells $page foods as the vocabulary it is given does',
    async ({ language, food, lines, read, spelt }) => {
      const withFoods = new TesseractEngine({
        preferredSpellings: (asked) => (asked === language ? [food] : []),
      });
      try {
        const words = await withFoods.recognize(page(lines, LATIN_FACE, false));
        expect(words.map((w) => w.text)).toContain(spelt);
        expect((await engine.recognize(page(lines, LATIN_FACE, false))).map((w) => w.text)).toContain(read);
      } finally {
        await withFoods.close();
      }
    },
    60_000,
  );

  it('loads its models, dictionaries and foods before the first page (a worker as it starts), then reads and closes', async () => {
    const load = vi.spyOn(SpellingCorrector.prototype, 'load');
    const asked = new Set<string>();
    const warmed = new TesseractEngine({
      preferredSpellings: (language) => {
        asked.add(language);
        return language === 'en' ? ['strawberries'] : [];
      },
    });
    const practised = vi.spyOn(warmed, 'recognize');
    try {
      await Promise.all([warmed.warmUp(), warmed.warmUp()]);
      expect(new Set(load.mock.calls.map(([language]) => language))).toEqual(new Set(SPELLING_LANGUAGES));
      // Each warm-up reads the two practice pages through every step.
      expect(practised).toHaveBeenCalledTimes(4);
      expect(asked).toEqual(new Set(['en', 'pt', 'es', 'fr', 'de', 'it', 'ar', 'fa']));
      const words = await warmed.recognize(page(['Fresh Strawberries 2 lb'], LATIN_FACE, false));
      expect(words.map((w) => w.text).join(' ')).toMatch(/Strawberries/);
    } finally {
      load.mockRestore();
      await warmed.close();
    }
  }, 60_000);

  it('reads its Latin practice page as flyer lines', async () => {
    const latin = (await engine.recognize(practicePage('latin'))).map((w) => w.text).join(' ');
    expect(latin).toMatch(/Chicken/);
    expect(latin).toMatch(/3\.99/);
  }, 60_000);

  // The practice page draws with the system's Arabic face; without it, it is boxes.
  it.runIf(existsSync(ARABIC_FACE))(
    'reads its Arabic-script practice page as flyer lines',
    async () => {
      const arabic = (await engine.recognize(practicePage('arabic'))).map((w) => w.text).join(' ');
      expect(arabic).toMatch(/لیقوان|ليقوان/);
      expect(arabic).toMatch(/7\.99/);
    },
    60_000,
  );

  it("reads a document's next pages in the language found on its first", async () => {
    const document: OcrDocument = {};
    await engine.recognize(
      page(
        ['Leve 3 pague 2 cada unidade', 'Ofertas válidas até sábado', 'Arroz tipo 1 de 5 kg'],
        LATIN_FACE,
        false,
      ),
      document,
    );
    expect(document.language).toBe('por');
    // Too few words to tell a language: alone, the page is read in English, without its accents.
    const few = page(['Açúcar refinado', 'Pão francês'], LATIN_FACE, false);
    const alone = (await engine.recognize(few)).map((w) => w.text).join(' ');
    expect(alone).not.toMatch(/Açúcar|francês/);
    const inDocument = (await engine.recognize(few, document)).map((w) => w.text).join(' ');
    expect(inDocument).toMatch(/Açúcar/);
    expect(inDocument).toMatch(/francês/);
  }, 60_000);
});

describe.runIf(existsSync(ARABIC_FACE))("an Arabic-script document's next pages", () => {
  it('are read in its script first, and a Latin page among them still in English', async () => {
    const document: OcrDocument = {};
    await engine.recognize(page(['پنیر لیقوان ۴۰۰ گرم', 'چای ایرانی ۵۰۰ گرم'], ARABIC_FACE, true), document);
    expect(document.script).toBe('arabic');
    const next = await engine.recognize(page(['زعفران یک گرم', 'خرما مضافتی'], ARABIC_FACE, true), document);
    expect(next.map((w) => w.text).join(' ')).toMatch(/زعفران/);
    const latin = page(['Fresh chicken breast', 'Whole milk one gallon'], LATIN_FACE, false);
    const read = (await engine.recognize(latin, document)).map((w) => w.text).join(' ');
    expect(read).toMatch(/chicken/);
    expect(read).toMatch(/milk/);
  }, 60_000);
});

describe('pageLanguage', () => {
  const words = (text: string): OcrWord[] =>
    text.split(' ').map((t, i) => ({ text: t, x: i * 10, y: 0, width: 8, height: 10, confidence: 0.9 }));

  it.each([
    ['Feijao Carioca 1 kg Leve 3 pague 2 cada unidade R$ 7,99 Ofertas validas ate sabado', 'por'],
    ['Tomates grappe le kg Prix sans carte 3,39 € Beurre doux au lait', 'fra'],
    ['Hähnchenbrust je kg statt 7,99 nur 5,99 Angebote gültig bis Samstag', 'deu'],
    ['Pechuga de pollo el kg Oferta hasta el sábado sin tarjeta', 'spa'],
    // Words Spanish shares with Portuguese ("válidas", "pague") and one misread "da" are not Portuguese.
    ['Ofertas validas del 12 al 18 de septiembre Naranjas de 2kg da Pechuga de pollo Jamon', 'spa'],
    ['Lleve 3 pague 2 Ofertas válidas hasta el 30 de octubre', 'spa'],
    ['Ofertas válidas de 12 a 18 de setembro Feijão Carioca', 'por'],
    // The real Italian flyer drawn to JPEG: "del" and "al" are Spanish too; the rest is Italian.
    ['CAMPIONI DEL RISPARMIO Snello fesa di tacchino al forno Cialde 80 pz in omaggio', 'ita'],
    ['Offerte valide dal 3 al 12 marzo Prezzo al kg', 'ita'],
    ['Atlantic Salmon Fillet per lb was $9.99 save $2 each', undefined],
    ['12 34 $5', undefined],
  ])('%s → %s', (text, language) => {
    expect(pageLanguage(words(text))).toBe(language);
  });
});
