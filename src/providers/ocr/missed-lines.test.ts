import { describe, expect, it } from 'vitest';
import {
  mayHoldPrices,
  missedLines,
  onLines,
  readingOrder,
  rowStrips,
  unreadStrips,
  withLinesReread,
  withPriceLines,
} from './missed-lines.ts';
import { ocrWord } from '../../../test/support/ocr-words.ts';

const word = ocrWord;

describe('lines the page reading missed', () => {
  const name = { x: 100, y: 100, width: 200, height: 30 };
  const plaque = { x: 100, y: 400, width: 200, height: 80 };

  it('are the detected lines without sure words over half their width', () => {
    const words = [
      word('Ponkan', 100, 100, 90, 30),
      word('Kg', 200, 100, 60, 30),
      word('=29%', 100, 400, 150, 80, 0.3),
    ];
    expect(missedLines([name, plaque], words)).toEqual([plaque]);
  });

  it('drop the unsure words read where no line was detected (photo texture), never sure ones', () => {
    const words = [
      word('AW)', 500, 700, 60, 40, 0.2),
      word('Kg', 200, 100, 60, 30, 0.9),
      word('Big', 520, 900, 60, 40, 0.9),
    ];
    expect(onLines(words, [name]).map((w) => w.text)).toEqual(['Kg', 'Big']);
  });

  it('are read as row strips: a whole part, its raised cents and its unit detected apart go together', () => {
    const strips = rowStrips([
      { x: 40, y: 500, width: 60, height: 90 }, // "8,"
      { x: 110, y: 500, width: 40, height: 40 }, // raised "99"
      { x: 160, y: 540, width: 80, height: 40 }, // "€ le kg"
      { x: 600, y: 500, width: 60, height: 90 }, // the next tile's price, far to the right
      { x: 40, y: 300, width: 200, height: 30 }, // the name above
    ]);
    expect(strips.sort((a, b) => a.y - b.y || a.x - b.x)).toEqual([
      { x: 40, y: 300, width: 200, height: 30 },
      { x: 40, y: 500, width: 200, height: 90 },
      { x: 600, y: 500, width: 60, height: 90 },
    ]);
  });

  it('take the new reading in a strip: unsure page words go, sure ones stay and win over new ones on them', () => {
    const strip = { x: 300, y: 220, width: 200, height: 40 };
    const page = [
      word('R$=799', 300, 228, 60, 20, 0.74),
      word('Junho', 420, 225, 70, 30, 0.96),
      word('Tomate', 300, 100, 90, 20, 0.5),
    ];
    const reread = [
      word('7.99', 333, 225, 60, 33, 0.9),
      word('Junho', 421, 224, 70, 31, 0.8),
      word('5', 310, 225, 10, 15, 0.9),
    ];
    const merged = withLinesReread(page, [strip], reread).map((w) => w.text);
    // Both readings of one price side by side were read as 7997.99; a lone "5" was a "$".
    expect(merged.sort()).toEqual(['7.99', 'Junho', 'Tomate']);
  });

  it('give way, sure or not, to a price the recogniser read there (tesseract is sure of raised cents alone)', () => {
    const strip = { x: 100, y: 700, width: 250, height: 140 };
    const page = [word('29', 230, 710, 60, 60, 0.89), word('Yogurt', 100, 650, 90, 20, 0.95)];
    const price = { ...strip, text: '2,29', confidence: 0.93, settled: true };
    const merged = withLinesReread(page, [strip], [price]).map((w) => w.text);
    expect(merged.sort()).toEqual(['2,29', 'Yogurt']);
  });

  it('keep the page words of a strip where the new reading found nothing', () => {
    const strip = { x: 300, y: 220, width: 200, height: 40 };
    const page = [word('R$=799', 300, 228, 60, 20, 0.4)];
    expect(withLinesReread(page, [strip], [])).toEqual(page);
  });

  it('left unread by the stack, a lone mark aside, are read again on their own', () => {
    const name = { x: 1120, y: 765, width: 82, height: 32 };
    const note = { x: 406, y: 460, width: 200, height: 37 };
    const price = { x: 646, y: 856, width: 233, height: 64 };
    const stacked = [word('۱۳,۲۹', 650, 858, 222, 60, 0.59), word('6', 430, 465, 12, 20, 0.7)];
    expect(unreadStrips([name, note, price], stacked)).toEqual([name, note]);
  });

  it('go to the price recogniser when read with a digit or printed at display size', () => {
    const strips = [
      { x: 0, y: 0, width: 100, height: 20 },
      { x: 0, y: 50, width: 100, height: 22 },
      { x: 0, y: 100, width: 100, height: 60 },
      { x: 0, y: 200, width: 100, height: 21 },
    ];
    const reread = [word('1kg', 10, 200, 30, 20)];
    expect(mayHoldPrices(strips, reread)).toEqual([strips[2], strips[3]]);
  });

  it('go to the price recogniser when read again with no sure word, at the middle height or over', () => {
    // savegnago rasterised: an outlined italic "R$ 1,69", a little taller than the names, read as "“Los".
    const strips = [
      { x: 0, y: 0, width: 190, height: 34 },
      { x: 0, y: 50, width: 140, height: 56 },
      { x: 0, y: 150, width: 100, height: 40 },
      { x: 0, y: 250, width: 60, height: 20 },
    ];
    const reread = [
      word('Alho', 5, 5, 30, 20, 0.96),
      word('“Los', 5, 52, 130, 54, 0),
      word('Repolho', 5, 155, 60, 30, 0.95),
      word('~', 5, 252, 10, 15, 0.1),
    ];
    expect(mayHoldPrices(strips, reread)).toEqual([strips[1]]);
  });
});

describe('price lines', () => {
  it('replace the words of their strip with one settled word', () => {
    const strip = { x: 100, y: 400, width: 200, height: 80 };
    const words = withPriceLines(
      [word('nsd1,99', 120, 410, 150, 60, 0.4), word('Cenoura', 100, 300, 90, 20)],
      [{ strip, text: '4,99', confidence: 0.94 }],
    );
    expect(words.map((w) => [w.text, w.settled ?? false])).toEqual([
      ['Cenoura', false],
      ['4,99', true],
    ]);
    expect(words[1]).toMatchObject(strip);
  });
});

describe('reading order', () => {
  it('is by line, left to right, however the readings were merged', () => {
    const words = [
      word('2024.', 731, 1667, 95, 29),
      word('Válido', 464, 1634, 125, 40),
      word('17', 464, 1668, 35, 27),
      word('para', 703, 1629, 70, 45),
      word('apenas', 581, 1629, 111, 45),
    ];
    expect(readingOrder(words).map((w) => w.text)).toEqual(['Válido', 'apenas', 'para', '17', '2024.']);
  });

  it('is right to left on a line in Arabic script', () => {
    const words = [
      word('گرم', 100, 10, 40, 20),
      word('زعفران', 300, 10, 60, 20),
      word('یک', 200, 12, 30, 20),
    ];
    expect(readingOrder(words).map((w) => w.text)).toEqual(['زعفران', 'یک', 'گرم']);
  });
});
