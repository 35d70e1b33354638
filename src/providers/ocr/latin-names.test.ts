import { describe, expect, it } from 'vitest';
import { ocrWord as word } from '../../../test/support/ocr-words.ts';
import { withoutGarbledQualifiers } from './latin-names.ts';
import { PreferredSpellings, SpellingCorrector } from './spelling.ts';

const foods = new PreferredSpellings(['banana', 'arroz', 'leche', 'tomate']);
const texts = (words: { text: string }[]) => words.map((w) => w.text);
/** Two words of a name line as OCR gives them: the first read surely, the second as unsure as given. */
const nameLine = (head: string, qualifier: string, confidence = 0.5, headConfidence = 0.95) => [
  word(head, 100, 20, 60, 14, headConfidence),
  word(qualifier, 166, 20, 60, 14, confidence),
];

describe('garbled qualifiers after a food heading a Latin-script name', () => {
  it('drops a word with a capital inside it after the food ("Banana NaiNca" is the bananas)', () => {
    expect(texts(withoutGarbledQualifiers(nameLine('Banana', 'NaiNca'), foods, false))).toEqual(['Banana']);
    expect(texts(withoutGarbledQualifiers(nameLine('Leche', 'seNlesnatada'), foods, false))).toEqual([
      'Leche',
    ]);
  });

  it('drops a word with a quote inside it where the language writes none, not in French', () => {
    expect(texts(withoutGarbledQualifiers(nameLine('Arroz', "redgfio'"), foods, false))).toEqual(['Arroz']);
    expect(texts(withoutGarbledQualifiers(nameLine('Arroz', "d'Anjou"), foods, true))).toEqual([
      'Arroz',
      "d'Anjou",
    ]);
  });

  it('leaves words OCR was sure of, words before the food, lines with figures and lines no food heads', () => {
    const kept = [
      nameLine('Banana', 'McCain', 0.92),
      nameLine('Banana', 'NaiNca', 0.5, 0.4),
      [word('NaiNca', 100, 20, 60, 14, 0.5), word('Banana', 166, 20, 60, 14)],
      [...nameLine('Banana', 'NaiNca'), word('1kg', 232, 20, 30, 14)],
      nameLine('Oferta', 'NaiNca'),
      nameLine('Banana', 'Nanica'),
    ];
    for (const words of kept)
      expect(texts(withoutGarbledQualifiers(words, foods, false))).toEqual(texts(words));
  });

  it('is applied by the spelling step of Portuguese, Spanish and French pages, not English ones', async () => {
    const corrector = new SpellingCorrector();
    const words = nameLine('Tomate', 'ItalNho');
    expect(texts(await corrector.correct(words, 'pt', foods))).toEqual(['Tomate']);
    expect(texts(await corrector.correct(words, 'en', foods))).toEqual(['Tomate', 'ItalNho']);
  });
});
