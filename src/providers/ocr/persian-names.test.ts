import { describe, expect, it } from 'vitest';
import { ArabicScriptFoods, foodWithLostMark } from './arabic-spelling.ts';
import type { OcrWord } from './ocr.ts';
import { withFoodsHeadingNames } from './persian-names.ts';

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
