import { describe, expect, it } from 'vitest';
import { ArabicScriptFoods } from '../../providers/ocr/arabic-spelling.ts';
import { foodWords } from './vocabulary.ts';

describe('the food vocabulary', () => {
  it("holds the reference's names in one language with their accents, word by word", () => {
    const portuguese = new Set(foodWords('pt'));
    for (const word of ['abóbora', 'maçã', 'feijão', 'cenoura']) expect(portuguese).toContain(word);
    expect(portuguese).not.toContain('pêche');
    expect(new Set(foodWords('fr'))).toContain('pêche');
    expect(foodWords('es').every((w) => w === w.toLowerCase() && /^\p{L}{3,}$/u.test(w))).toBe(true);
  });

  it("holds the English names of the reference and their aliases' words", () => {
    const english = new Set(foodWords('en'));
    for (const word of ['greek', 'yogurt', 'strawberries', 'chicken']) expect(english).toContain(word);
  });

  it('holds Arabic and Persian names each in its own letter forms', () => {
    const arabic = new Set(foodWords('ar'));
    const persian = new Set(foodWords('fa'));
    for (const word of ['أرز', 'عدس', 'طماطم', 'زيتون']) expect(arabic).toContain(word);
    for (const word of ['برنج', 'پسته', 'چای', 'گوشت']) expect(persian).toContain(word);
    expect([...arabic].some((w) => /[یک]/u.test(w))).toBe(false);
    expect([...persian].some((w) => /[يكة]/u.test(w))).toBe(false);
  });

  it("holds the staples of Gulf, Levant and Iranian flyers, so OCR's spelling of them becomes theirs", () => {
    // Labneh is the English reference's alias of greek yogurt; its Arabic name was missing, so OCR's
    // "لبنه" (a ta marbuta read as heh) stayed unmended and was listed under a name no label has.
    const arabic = new ArabicScriptFoods(foodWords('ar'));
    expect(arabic.spelling('لبنه')).toBe('لبنة');
    expect(arabic.spelling('خلاص')).toBe('خلاص');
    expect(new ArabicScriptFoods(foodWords('fa')).spelling('ليقوان')).toBe('لیقوان');
  });

  it("holds Iran's everyday breads, so OCR's misreading of one becomes its name", () => {
    const persian = new ArabicScriptFoods(foodWords('fa'));
    for (const word of ['بربری', 'سنگک', 'لواش', 'تافتون']) expect(persian.spelling(word)).toBe(word);
    // "نان بربری" as OCR read it from a generated Persian page, two dots astray.
    expect(persian.misreadFood('بریزی')).toBe('بربری');
  });
});
