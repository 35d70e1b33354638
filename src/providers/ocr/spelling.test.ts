import { describe, expect, it } from 'vitest';
import { fold, HunspellDictionary } from './hunspell.ts';
import type { OcrWord } from './ocr.ts';
import { PreferredSpellings, SpellingCorrector, spelledAsFoods } from './spelling.ts';

const word = (text: string, confidence = 0.5, extra: Partial<OcrWord> = {}): OcrWord => ({
  text,
  x: 100,
  y: 20,
  width: 90,
  height: 12,
  confidence,
  ...extra,
});

describe('a Hunspell dictionary', () => {
  // Flags as hunspell writes them: single characters, and conditions on the stem's end.
  const aff = [
    'SET UTF-8',
    'NEEDAFFIX !',
    'SFX D Y 3',
    'SFX D o a [^ã]o',
    'SFX D 0 s [oeu]',
    'SFX D ão ões ão',
    'PFX R Y 1',
    'PFX R 0 re .',
  ].join('\n');
  const dic = ['5', 'branco/D', 'limão/D', 'pérola', 'fazer/R', 'vend/!'].join('\n');
  const dictionary = new HunspellDictionary(aff, dic);
  const words = (folded: string) => dictionary.wordsFolding(folded).map((w) => w.word);

  it('finds stems and their one-affix forms by their folded spelling', () => {
    expect(words('branca')).toEqual(['branca']);
    expect(words('brancos')).toEqual(['brancos']);
    expect(words('limoes')).toEqual(['limões']);
    expect(words('perola')).toEqual(['pérola']);
    expect(words('refazer')).toEqual(['refazer']);
  });

  it('applies a rule only where its condition holds and never alone-forbidden stems', () => {
    expect(words('limaa')).toEqual([]); // "o → a" needs a stem ending in a vowel other than ã + o
    expect(words('vend')).toEqual([]);
    expect(words('brancoss')).toEqual([]);
  });

  it('tells stems from inflected forms', () => {
    expect(dictionary.wordsFolding('branco')).toEqual([{ word: 'branco', stem: true }]);
    expect(dictionary.wordsFolding('branca')).toEqual([{ word: 'branca', stem: false }]);
  });

  it('reads two-character and numeric flags', () => {
    const long = new HunspellDictionary('FLAG long\nSFX Aa Y 1\nSFX Aa 0 s .', '1\nprix/Aa');
    expect(long.wordsFolding('prixs').map((w) => w.word)).toEqual(['prixs']);
    const numeric = new HunspellDictionary('FLAG num\nSFX 12 Y 1\nSFX 12 0 s .', '1\nkiwi/3,12');
    expect(numeric.wordsFolding('kiwis').map((w) => w.word)).toEqual(['kiwis']);
  });

  it('folds case, accents and cedillas', () => {
    expect(fold('MAÇÃ Pérola Bœuf')).toBe('maca perola boeuf');
  });
});

describe('OCR words checked against the page language', () => {
  const spelling = new SpellingCorrector();
  const corrected = async (texts: string[], language: 'pt' | 'en' | 'es' | 'fr' = 'pt', confidence = 0.5) =>
    (
      await spelling.correct(
        texts.map((t) => word(t, confidence)),
        language,
      )
    ).map((w) => w.text);
  /** Words read at `confidence`, checked with `foods`: each one's text and confidence after. */
  const withFoods = async (
    texts: string[],
    foods: PreferredSpellings,
    { language = 'pt', confidence = 0.5 }: { language?: 'pt' | 'en' | 'fr' | 'es'; confidence?: number } = {},
  ) =>
    (
      await spelling.correct(
        texts.map((t) => word(t, confidence)),
        language,
        foods,
      )
    ).map((w) => [w.text, w.confidence]);

  it('gives capitals read without accents their accents back, in the case printed', async () => {
    expect(await corrected(['ACEM', 'BOVINO', 'coxao', 'Feijao', 'GRAUDA'])).toEqual([
      'ACÉM',
      'BOVINO',
      'coxão',
      'Feijão',
      'GRAÚDA',
    ]);
    expect(await corrected(['PLATANO', 'Jamon'], 'es')).toEqual(['PLÁTANO', 'Jamón']);
    expect(await corrected(['BOEUF', 'FRAICHE', 'Epinards'], 'fr')).toEqual(['BŒUF', 'FRAÎCHE', 'Épinards']);
  });

  it('gives a word the dictionary holds, read with its second letter in capitals, its printed case', async () => {
    expect(await corrected(['SHoulder', 'Roast', 'CRage', 'BBQ'], 'en')).toEqual([
      'Shoulder',
      'Roast',
      'CRage',
      'BBQ',
    ]);
    expect(await corrected(['FEijão', 'ARroz'])).toEqual(['Feijão', 'Arroz']);
  });

  it("spells a food as the food vocabulary does where the dictionary also holds another word's form", async () => {
    // "abobora" is a verb form in the Portuguese dictionary, "maca" a stretcher.
    const foods = new PreferredSpellings(['abóbora', 'maçã', 'batata', 'pêssego', 'pessego']);
    expect(await withFoods(['ABOBORA', 'Maca', 'Batata', 'PESSEGO'], foods)).toEqual([
      ['ABÓBORA', 0.85],
      ['Maçã', 0.85],
      ['Batata', 0.85],
      ['PÊSSEGO', 0.85], // two spellings of one food settle nothing: the dictionary's accent stands
    ]);
    // Nor over a word the dictionary lists as it was read: French "mais" (but) beside "maïs".
    expect(await withFoods(['mais', 'MAIS'], new PreferredSpellings(['maïs']), { language: 'fr' })).toEqual([
      ['mais', 0.85],
      ['MAIS', 0.85],
    ]);
  });

  it('reads a noun stressed before its last syllable, printed without its accent, as the noun', async () => {
    // "perola", "figado" are verb forms the dictionaries also hold (of "perolar", "figar").
    expect(await corrected(['Abacaxi', 'PEROLA', 'Figado', 'LIQUIDO'])).toEqual([
      'Abacaxi',
      'PÉROLA',
      'Fígado',
      'LÍQUIDO',
    ]);
    expect(await corrected(['CASCARA', 'Esparrago'], 'es')).toEqual(['CÁSCARA', 'Espárrago']);
    // A stem stressed on its last syllable is not taken ("batatá", "mangá"), nor in French.
    expect(await corrected(['Batata', 'MANGA', 'Pague'])).toEqual(['Batata', 'MANGA', 'Pague']);
    expect(await corrected(['media'], 'fr')).toEqual(['media']);
  });

  it('mends an unsure word a letter away from the one word the dictionary holds', async () => {
    expect(await corrected(['Abgcaxi', 'BOVINOD'])).toEqual(['Abacaxi', 'BOVINO']);
    expect(await corrected(['Chlcken', 'Brocoli'], 'en')).toEqual(['Chicken', 'Broccoli']);
  });

  it('takes the one food among several words a letter away', async () => {
    // "aimpim" is a letter from "aipim" (cassava) and from "pimpim": a grocery flyer means the food.
    const unsure = { confidence: 0.2 };
    expect(await withFoods(['Aimpim'], new PreferredSpellings(['aipim', 'mandioca']), unsure)).toEqual([
      ['Aipim', 0.7],
    ]);
    // Without a food among them nothing is settled.
    expect(await withFoods(['Aimpim'], new PreferredSpellings(['cenoura']), unsure)).toEqual([
      ['Aimpim', 0.2],
    ]);
    // Nor in English, where US flyers print Spanish names a letter from several words, one a food.
    const english = new PreferredSpellings(['cane', 'cream']);
    expect(await withFoods(['Carne', 'Crema'], english, { language: 'en' })).toEqual([
      ['Carne', 0.5],
      ['Crema', 0.5],
    ]);
  });

  it('mends a long unsure word two letters from one food, when the dictionary holds nothing nearer', async () => {
    const foods = new PreferredSpellings(['espaguete', 'macarrão', 'feijão']);
    const read = (texts: string[], preferred = foods) => withFoods(texts, preferred);
    expect(await read(['Espaguetll', 'ESPAGUETII'])).toEqual([
      ['Espaguete', 0.7],
      ['ESPAGUETE', 0.7],
    ]);
    // Two foods as near, a shorter word, or no such food: left as read.
    const twins = new PreferredSpellings(['espaguete', 'espaguetti']);
    expect(await read(['Espaguetll'], twins)).toEqual([['Espaguetll', 0.5]]);
    expect(await read(['Feijzoo'], new PreferredSpellings(['feijão']))).toEqual([['Feijzoo', 0.5]]);
    expect(await read(['Espaguetll'], new PreferredSpellings(['cenoura']))).toEqual([['Espaguetll', 0.5]]);
  });

  it("undoes OCR's glyph confusions of display faces into one food, before a letter's mend", async () => {
    // "Ç" read as "G", "Ú" as "II" or "LI": "agiicar" is a letter from the verb "agriçar".
    const foods = new PreferredSpellings(['açúcar', 'limão', 'damasco']);
    expect(await withFoods(['Agiicar', 'AGLICAR', 'Lirnao', 'Clamasco'], foods)).toEqual([
      ['Açúcar', 0.7],
      ['AÇÚCAR', 0.7],
      ['Limão', 0.7],
      ['Damasco', 0.7],
    ]);
    // "ú" read as "t" or "i", its accent taken for a cross stroke or a dot, beside the "ç" read "g".
    expect(await withFoods(['Agtcar', 'Agicar'], foods)).toEqual([
      ['Açúcar', 0.7],
      ['Açúcar', 0.7],
    ]);
    // Read with confidence, or two foods through different confusions: left to the other rules.
    expect(await withFoods(['Agiicar'], foods, { confidence: 0.9 })).toEqual([['Agiicar', 0.9]]);
    const twins = new PreferredSpellings(['açúcar', 'agucar']);
    expect(await withFoods(['Agiicar'], twins)).toEqual([['Agriçar', 0.7]]);
  });

  it('reads back a "ç" OCR read as "g" however sure, where that makes a food, keeping the flyer\'s spelling', async () => {
    // Real jvargas flyer: "Maça Fuji" (its spelling of "maçã"), read "Maga", which Portuguese holds.
    const foods = new PreferredSpellings(['maçã', 'açúcar', 'figo', 'manga']);
    expect(await withFoods(['Maga', 'MAGÃ', 'Agucar'], foods, { confidence: 0.95 })).toEqual([
      ['Maça', 0.95],
      ['MAÇÃ', 0.95],
      ['Açucar', 0.95],
    ]);
    expect(await withFoods(['Maga'], foods, { language: 'fr', confidence: 0.95 })).toEqual([['Maça', 0.95]]);
    // A food as read, a word that makes no food, Spanish (no "ç"), and two foods: left as read.
    expect(await withFoods(['Figo', 'Manga', 'Pago'], foods, { confidence: 0.95 })).toEqual([
      ['Figo', 0.95],
      ['Manga', 0.95],
      ['Pago', 0.95],
    ]);
    expect(await withFoods(['Maga'], foods, { language: 'es', confidence: 0.95 })).toEqual([['Maga', 0.95]]);
    const twins = new PreferredSpellings(['maçag', 'magaç']);
    expect(await withFoods(['Magag'], twins, { confidence: 0.95 })).toEqual([['Magag', 0.95]]);
  });

  it('mends a long word OCR was sure of only into the one food a letter away', async () => {
    const read = async (texts: string[], foods: string[], language: 'en' | 'pt' = 'en') =>
      (await withFoods(texts, new PreferredSpellings(foods), { language, confidence: 0.9 })).map(
        ([text]) => text,
      );
    expect(await read(['Strawbefries', 'Chlcken'], ['strawberries', 'chicken'])).toEqual([
      'Strawberries',
      'Chlcken',
    ]);
    // A brand a letter from a word that is no food stays: "Tarantella" (sauce), "tarantela" (dance).
    expect(await read(['Tarantella'], ['tomate'], 'pt')).toEqual(['Tarantella']);
    expect(await read(['Strawbefries'], ['chicken'])).toEqual(['Strawbefries']);
  });

  it('splits a unit glued to a word, each over its share of the box', async () => {
    const [name, unit] = await spelling.correct([word('Brancakg', 0.4)], 'pt');
    expect([name!.text, unit!.text]).toEqual(['Branca', 'kg']);
    expect(name!.x).toBe(100);
    expect(name!.width + unit!.width).toBeCloseTo(90);
    expect(unit!.x).toBeCloseTo(100 + name!.width);
  });

  it('splits two words OCR read without the space between them, at a capital or a misread capital I', async () => {
    // savegnago drawn at 150 dpi: "Maçã Importada Red" read "Red Maçãlmportada".
    const texts = async (text: string, language: 'pt' | 'en' = 'pt') =>
      (await spelling.correct([word(text, 0.9)], language)).map((w) => w.text);
    expect(await texts('Maçãlmportada')).toEqual(['Maçã', 'Importada']);
    expect(await texts('VerdeRepolho')).toEqual(['Verde', 'Repolho']);
    expect(await texts('ChickenBreast', 'en')).toEqual(['Chicken', 'Breast']);
    // Words the dictionary holds whole, and brands it holds no half of, stay.
    expect(await texts('Chocolate')).toEqual(['Chocolate']);
    expect(await texts('Bisnaguinha')).toEqual(['Bisnaguinha']);
    expect(await texts('McDonald', 'en')).toEqual(['McDonald']);
    expect(await texts('Pirakids')).toEqual(['Pirakids']);
  });

  it('leaves what it cannot settle as read', async () => {
    // A brand read with confidence is not a typo; short words and two-letter slips are left;
    // digits, prices, other scripts and words read by the price recogniser are not words.
    expect(await corrected(['Copacol', 'Tarantella'], 'pt', 0.9)).toEqual(['Copacol', 'Tarantella']);
    expect(await corrected(['Maga', 'saidda', 'R$4,99', '500g', 'سیب'])).toEqual([
      'Maga',
      'saidda',
      'R$4,99',
      '500g',
      'سیب',
    ]);
    const [settled] = await spelling.correct([word('ACEM', 0.5, { settled: true })], 'pt');
    expect(settled!.text).toBe('ACEM');
  });

  it('bounds the work a hostile picture can ask for: long words and many unknown ones', async () => {
    const garbage = Array.from({ length: 2000 }, (_, i) =>
      word(`Qzvbn${String.fromCharCode(97 + (i % 26))}rtk`, 0.3),
    );
    const out = await spelling.correct([...garbage, word('x'.repeat(5000), 0.3), word('Abgcaxi', 0.3)], 'pt');
    expect(out).toHaveLength(2002);
    expect(out.at(-2)!.text).toHaveLength(5000);
    // Past the page's budget of searches, even a word a letter away is left as read.
    expect(out.at(-1)!.text).toBe('Abgcaxi');
    // The budget is in letters, a long word's search costing more: 30 words of 24 letters spend it.
    const long = Array.from({ length: 30 }, (_, i) =>
      word(`Qzvbnxrtqzvbnxrtqzvbnxr${String.fromCharCode(97 + (i % 26))}`, 0.3),
    );
    const afterLong = await spelling.correct([...long, word('Abgcaxi', 0.3)], 'pt');
    expect(afterLong.at(-1)!.text).toBe('Abgcaxi');
    // Long words OCR was sure of spend none of it unless a food is a letter away.
    const sure = Array.from({ length: 2000 }, (_, i) =>
      word(`Qzvbnxrt${String.fromCharCode(97 + (i % 26))}k`, 0.95),
    );
    const foods = new PreferredSpellings(['abacaxi']);
    const after = await spelling.correct([...sure, word('Abgcaxi', 0.3)], 'pt', foods);
    expect(after.at(-1)!.text).toBe('Abacaxi');
  });

  it('keeps punctuation around a word', async () => {
    expect(await corrected(['(ACEM)', 'Feijao,'])).toEqual(['(ACÉM)', 'Feijão,']);
  });

  it('trusts a word the dictionary holds more than tesseract did, short words aside', async () => {
    const [known, mended, short, unknown] = await spelling.correct(
      [word('Cenoura', 0.3), word('Abgcaxi', 0.3), word('sal', 0.3), word('Xyzwq', 0.3)],
      'pt',
    );
    expect(known!.confidence).toBe(0.85);
    expect(mended!.confidence).toBe(0.7);
    expect(short!.confidence).toBe(0.3);
    expect(unknown!.confidence).toBe(0.3);
    const [sure] = await spelling.correct([word('Cenoura', 0.96)], 'pt');
    expect(sure!.confidence).toBe(0.96);
  });
});

describe("OCR words of a page whose language has no dictionary here, checked against its foods' names", () => {
  // German's dictionaries are GPL-only: its food vocabulary is all there is to check against.
  const foods = new PreferredSpellings([
    'hähnchenbrustfilet',
    'vollmilch',
    'markenbutter',
    'möhren',
    'milch',
    'gemüse',
  ]);
  const read = (texts: string[], confidence = 0.5) =>
    spelledAsFoods(
      texts.map((t) => word(t, confidence)),
      foods,
    ).map((w) => [w.text, w.confidence]);

  it("gives a food read without its umlauts the food's spelling, however sure OCR was", () => {
    expect(read(['Hahnchenbrustfilet', 'MOHREN', '(Mohren)'], 0.95)).toEqual([
      ['Hähnchenbrustfilet', 0.95],
      ['MÖHREN', 0.95],
      ['(Möhren)', 0.95],
    ]);
    expect(read(['Hähnchenbrüstfilet'])).toEqual([['Hähnchenbrustfilet', 0.85]]);
  });

  it('mends an unsure long word a letter from one food, and nothing else', () => {
    expect(read(['VolliMilch', 'Markenbuter'])).toEqual([
      ['Vollmilch', 0.7],
      ['Markenbutter', 0.7],
    ]);
    // Sure of it, too short to tell, or a letter from no food: a brand, a word the vocabulary lacks.
    expect(read(['VolliMilch'], 0.9)).toEqual([['VolliMilch', 0.9]]);
    expect(read(['Milck', 'Molkerei', 'Angebot'])).toEqual([
      ['Milck', 0.5],
      ['Molkerei', 0.5],
      ['Angebot', 0.5],
    ]);
    const [settled] = spelledAsFoods([word('Hahnchenbrustfilet', 0.5, { settled: true })], foods);
    expect(settled!.text).toBe('Hahnchenbrustfilet');
  });

  it("undoes OCR's glyph confusions of display faces into a food, in an unsure word", () => {
    // "Ü" read as "II": two letters from "gemüse", a letter from no food.
    expect(read(['GEMIISE', 'Gemiise'], 0.6)).toEqual([
      ['GEMÜSE', 0.7],
      ['Gemüse', 0.7],
    ]);
    expect(read(['Gemiise'], 0.9)).toEqual([['Gemiise', 0.9]]);
  });

  it('leaves a word a letter from two foods as read', () => {
    const twins = new PreferredSpellings(['kartoffel', 'kartoffeln']);
    expect(spelledAsFoods([word('Kartoffelm', 0.5)], twins).map((w) => w.text)).toEqual(['Kartoffelm']);
  });

  it('bounds the searches a hostile picture can ask for', () => {
    const garbage = Array.from({ length: 2000 }, (_, i) =>
      word(`Qzvbnxx${String.fromCharCode(97 + (i % 26))}rtk`, 0.3),
    );
    const out = spelledAsFoods([...garbage, word('VolliMilch', 0.3)], foods);
    expect(out).toHaveLength(2001);
    expect(out.at(-1)!.text).toBe('VolliMilch');
  });
});

describe('Persian OCR words checked against the Persian dictionary', () => {
  const corrector = new SpellingCorrector();
  const spelt = async (texts: string[], confidence = 0.9) =>
    (
      await corrector.correct(
        texts.map((t) => word(t, confidence)),
        'fa',
      )
    ).map((w) => w.text);

  it('gives back the mark OCR lost from a letter, however sure OCR was', async () => {
    expect(await spelt(['کوشت', 'کوسفندی', 'جیتی', 'ینیر'])).toEqual(['گوشت', 'گوسفندی', 'چیتی', 'پنیر']);
  });

  it('takes a letter of the same stroke when no mark was lost ("برتج" → "برنج")', async () => {
    expect(await spelt(['برتج', 'ایراتی'])).toEqual(['برنج', 'ایرانی']);
  });

  it('reads the Arabic model\'s kaf and yeh as Persian ones ("كوشت")', async () => {
    expect(await spelt(['كوشت'])).toEqual(['گوشت']);
  });

  it('leaves a word the dictionary holds, and one it cannot settle, as read', async () => {
    expect(await spelt(['جای', 'زعفران', 'خرما', 'ققققق'])).toEqual(['جای', 'زعفران', 'خرما', 'ققققق']);
  });
});
