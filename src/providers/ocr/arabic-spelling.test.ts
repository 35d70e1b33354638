import { describe, expect, it } from 'vitest';
import { ArabicScriptFoods, arabicScriptKey, spelledAsFood } from './arabic-spelling.ts';
import type { OcrWord } from './ocr.ts';
import { SpellingCorrector } from './spelling.ts';

const word = (text: string, confidence = 0.9): OcrWord => ({
  text,
  x: 0,
  y: 0,
  width: 60,
  height: 20,
  confidence,
});

describe('OCR words of an Arabic-script flyer spelt as the food vocabulary spells them', () => {
  const arabic = new ArabicScriptFoods([
    'أرز',
    'بسمتي',
    'لبنة',
    'أحمر',
    'عدس',
    'خيار',
    'تين',
    'حلبة',
    'جلبة',
  ]);
  const spelt = (text: string) => arabic.spelling(text);

  it('folds the hamza, the ta marbuta and the yeh OCR wrote its way', () => {
    expect(spelt('آرز')).toBe('أرز');
    expect(spelt('ارز')).toBe('أرز');
    expect(spelt('لبنه')).toBe('لبنة');
    expect(spelt('احمر')).toBe('أحمر');
    expect(spelt('بسمتى')).toBe('بسمتي');
    expect(spelt('بسمتی')).toBe('بسمتي');
    expect(arabicScriptKey('لبنة')).toBe(arabicScriptKey('لبنه'));
  });

  it('mends a longer word a misread dot away from one food, or a tooth short of one', () => {
    expect(spelt('حيار')).toBe('خيار');
    expect(spelt('بسمي')).toBe('بسمتي');
    expect(spelt('عدس')).toBe('عدس');
    expect(spelt('عد')).toBeUndefined();
  });

  it('reads a long word ending in a reh as the food ending in a yeh whose dots OCR lost', () => {
    expect(spelt('بسمتر')).toBe('بسمتي');
    expect(spelt('بسمتز')).toBe('بسمتي');
    // Only at the end, only on long words, and never over a food as read ("أحمر", red).
    expect(spelt('خرار')).toBeUndefined(); // not خيار: a reh inside a word is no yeh's tail
    expect(spelt('احمر')).toBe('أحمر');
    expect(new ArabicScriptFoods(['شاي']).spelling('شار')).toBeUndefined();
  });

  it('leaves a short word, one two foods are equally near, and one far from any, as read', () => {
    expect(spelt('بين')).toBeUndefined(); // "between", a dot from تين (figs)
    expect(spelt('خلبة')).toBeUndefined(); // حلبة or جلبة
    expect(spelt('درهم')).toBeUndefined();
    expect(spelt('من')).toBeUndefined();
    expect(spelt('حيار'.repeat(2_000))).toBeUndefined(); // a hostile picture's endless word
  });

  it('keeps the punctuation around a word and raises OCR’s doubt about a food', () => {
    const mended = spelledAsFood(word('(لبنه)', 0.4), arabic);
    expect(mended).toMatchObject({ text: '(لبنة)', confidence: 0.85 });
    expect(spelledAsFood(word('حيار', 0.4), arabic)).toMatchObject({ text: 'خيار', confidence: 0.7 });
    expect(spelledAsFood(word('SALE'), arabic)).toBeUndefined();
  });

  it('mends a Persian word the dictionary lacks into a food before the dictionary is asked, never one it holds', async () => {
    const persian = new ArabicScriptFoods(['پسته', 'لیقوان', 'سیر', 'شیر']);
    const corrector = new SpellingCorrector();
    const read = ['بسته', 'لیفوان', 'سیر', 'شیر', 'کوشت'].map((t) => word(t));
    // بسته (a pack) is a word, a dot from پسته (pistachios): it stays. Garlic and milk, a dot
    // apart, are both foods: each stays as read. The dictionary still mends what no food is near.
    expect((await corrector.correct(read, 'fa', undefined, persian)).map((w) => w.text)).toEqual([
      'بسته',
      'لیقوان',
      'سیر',
      'شیر',
      'گوشت',
    ]);
  });

  it('mends a long Persian word misread in up to three dots or lost teeth into its one food, no dictionary word near', async () => {
    const persian = new ArabicScriptFoods(['گوسفندی', 'گوشت', 'باسماتی', 'برنجی', 'ریز']);
    const corrector = new SpellingCorrector();
    const read = ['کوسقتدی', 'گوسفدی', 'بریزی', 'آسمان'].map((t) => word(t));
    // کوسقتدی: three dots misread (ک گ, ق ف, ت ن); گوسفدی: the tooth of ن lost. بریزی is a
    // letter of another stroke from برنجی, and آسمان (sky) a word the dictionary holds: as read.
    expect((await corrector.correct(read, 'fa', undefined, persian)).map((w) => w.text)).toEqual([
      'گوسفندی',
      'گوسفندی',
      'بریزی',
      'آسمان',
    ]);
    expect(persian.misreadFood('اسمان')).toBeUndefined(); // two letters short of باسماتی
    expect(new ArabicScriptFoods(['گوسفتدی', 'کوسفندی']).misreadFood('کوسقتدی')).toBeUndefined(); // two as near
    expect(persian.misreadFood('جیتر')).toBeUndefined(); // under five letters
  });

  it('splits two foods OCR read as one word where the first ends in a letter that does not join', async () => {
    // After ر (or ا د ز و) a word's end looks like the gap before the next letter's.
    const persian = new ArabicScriptFoods(['پنیر', 'لیقوان', 'برنج']);
    expect(persian.joined('پنیرلیقوان')).toBe('پنیر لیقوان');
    expect(arabic.joined('ارزبسمتي')).toBe('أرز بسمتي');
    expect(spelledAsFood(word('پنیرلیقوان', 0.84), persian)).toMatchObject({ text: 'پنیر لیقوان' });
    const read = await new SpellingCorrector().correct([word('پنیرلیقوان')], 'fa', undefined, persian);
    expect(read.map((w) => w.text)).toEqual(['پنیر لیقوان']);
    // Not after a letter that joins (two words would show a gap), nor where a part is no food.
    expect(arabic.joined('بسمتيعدس')).toBeUndefined();
    expect(persian.joined('پنیرسیب')).toBeUndefined();
    expect(persian.joined('پنیرلیقوان'.repeat(500))).toBeUndefined();
  });

  it('drops an alef OCR glued before a food from a stroke beside it, only when the rest is a food', () => {
    const persian = new ArabicScriptFoods(['خرما', 'انار', 'نار']);
    expect(persian.spelling('اخرما')).toBe('خرما');
    expect(persian.spelling('انار')).toBe('انار'); // a food as read keeps its alef
    expect(spelt('اعدس')).toBe('عدس');
    expect(spelt('اعد')).toBeUndefined(); // the rest too short to be a food
    expect(spelt('اسمتي')).toBeUndefined(); // no food without the alef
  });
});
