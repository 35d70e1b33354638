import { describe, expect, it } from 'vitest';
import { ArabicScriptFoods, foodWithLostMark } from './arabic-spelling.ts';
import type { OcrWord } from './ocr.ts';
import { withFoodsHeadingNames, withoutUnreadQualifiers } from './persian-names.ts';

/** Words as OCR boxed them on a generated Persian flyer (x of the left edge, right to left). */
const at = (text: string, x: number, y: number, width = 60, height = 30): OcrWord => ({
  text,
  x,
  y,
  width,
  height,
  confidence: 0.91,
});

const foods = new ArabicScriptFoods(['چای', 'پسته', 'نان', 'برنج', 'گوشت']);
const texts = (words: OcrWord[]) => words.map((w) => w.text);

describe('Persian dictionary words that are a food but for a mark OCR lost', () => {
  it('finds the food only where the difference is a Persian mark', () => {
    expect(foodWithLostMark('جاى', foods)).toBe('چای');
    expect(foodWithLostMark('بسته', foods)).toBe('پسته');
    expect(foodWithLostMark('چای', foods)).toBeUndefined(); // already the food
    expect(foodWithLostMark('گوشب', foods)).toBeUndefined(); // a dot, not a lost mark
  });

  it('makes the food of a word heading a short line without digits: a product name', () => {
    const tile = [at('جاى', 542, 388, 55), at('ایرانی', 456, 388, 75), at('8.99', 50, 502, 139, 58)];
    expect(texts(withFoodsHeadingNames(tile, foods))).toEqual(['چای', 'ایرانی', '8.99']);
    const alone = [at('بسته', 1100, 708, 70, 36), at('13.29', 652, 860, 160, 58)];
    expect(texts(withFoodsHeadingNames(alone, foods))[0]).toBe('پسته');
  });

  it('leaves the word as read beside a quantity, inside a phrase, or in a sentence', () => {
    const pack = [at('بسته', 1100, 500), at('۵۰۰', 1040, 500, 50), at('گرمی', 970, 500)];
    expect(texts(withFoodsHeadingNames(pack, foods))[0]).toBe('بسته');
    const instead = [at('به', 1150, 300, 30), at('جای', 1080, 300), at('شکر', 1010, 300)];
    expect(texts(withFoodsHeadingNames(instead, foods))[1]).toBe('جای');
    const sentence = ['جای', 'خالی', 'در', 'سبد', 'خرید', 'شما'].map((t, i) => at(t, 1100 - i * 70, 200));
    expect(texts(withFoodsHeadingNames(sentence, foods))[0]).toBe('جای');
  });

  it('keeps a word of another line out of the name line', () => {
    const twoLines = [at('جاى', 542, 388, 55), at('500', 540, 440, 50)];
    expect(texts(withFoodsHeadingNames(twoLines, foods))[0]).toBe('چای');
  });
});

describe('Arabic-script qualifiers OCR could not read', () => {
  const unread = (text: string, x: number, y: number, width = 60, height = 30): OcrWord => ({
    ...at(text, x, y, width, height),
    confidence: 0.05,
  });

  it('drops an unread word after a food read surely at the head of a name line', () => {
    // Generated fa-DE: "چای ایرانی" (Iranian tea) with a photo's shape across "ایرانی".
    const tile = [
      at('چای', 260, 358, 26, 16),
      unread('ابرلظ', 224, 356, 31, 20),
      at('7.73', 24, 412, 73, 28),
    ];
    expect(texts(withoutUnreadQualifiers(tile, foods))).toEqual(['چای', '7.73']);
  });

  it('keeps the word when the head is no food, is read unsurely, or is the unread word itself', () => {
    const noFood = [at('ابریشم', 260, 358), unread('ابرلظ', 190, 358)];
    expect(texts(withoutUnreadQualifiers(noFood, foods))).toEqual(['ابریشم', 'ابرلظ']);
    const unsureHead = [{ ...at('چای', 260, 358), confidence: 0.4 }, unread('ابرلظ', 190, 358)];
    expect(texts(withoutUnreadQualifiers(unsureHead, foods))).toHaveLength(2);
    const headUnread = [unread('ابرلظ', 260, 358), at('چای', 190, 358)];
    expect(texts(withoutUnreadQualifiers(headUnread, foods))).toHaveLength(2);
  });

  it('keeps an unread word that is a food a letter away, one beside a quantity, and one in a sentence', () => {
    const food = [at('گوشت', 260, 358), unread('برنچ', 190, 358)];
    expect(texts(withoutUnreadQualifiers(food, foods))).toEqual(['گوشت', 'برنچ']);
    const pack = [at('چای', 260, 358), unread('ابرلظ', 190, 358), at('۵۰۰', 130, 358, 50)];
    expect(texts(withoutUnreadQualifiers(pack, foods))).toContain('ابرلظ');
    const sentence = ['چای', 'ابرلظ', 'در', 'سبد', 'خرید'].map((t, i) =>
      i === 1 ? unread(t, 1100 - i * 70, 200) : at(t, 1100 - i * 70, 200),
    );
    expect(texts(withoutUnreadQualifiers(sentence, foods))).toContain('ابرلظ');
  });
});
