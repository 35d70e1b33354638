import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { readArabicIndicNumbers } from './arabic-digits.ts';

const FACES = {
  'Noto Sans Arabic Bold': '/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf',
  'DejaVu Sans Bold': '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
};

/** One line of right-to-left print, as a flyer's price line is drawn. */
function line(text: string, family: string, size = 60, colour = '#c2185b') {
  const canvas = createCanvas(size * 9, Math.round(size * 1.4));
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = colour;
  g.font = `${size}px "${family}"`;
  g.direction = 'rtl';
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  g.fillText(text, canvas.width - size * 0.3, canvas.height / 2);
  return readArabicIndicNumbers(
    g.getImageData(0, 0, canvas.width, canvas.height).data,
    canvas.width,
    canvas.height,
  );
}

for (const [family, file] of Object.entries(FACES)) {
  describe.runIf(existsSync(file))(`Arabic-Indic display digits in ${family}`, () => {
    GlobalFonts.registerFromPath(file, family);

    it.each([
      ['٩.٢٩ درهم', '9.29'],
      ['١٤.٢٩ درهم', '14.29'],
      ['١٨.٩٥ درهم', '18.95'],
      ['٠.٦٧ درهم', '0.67'],
      ['€ ۶,۵۰', '6.50'],
      ['€ ۲۵,۹۹', '25.99'],
      ['€ ۴,۵۰', '4.50'],
    ])('reads "%s" as %s, with no other price in the line', (text, number) => {
      // A letter may pass for a lone digit (د for ٥): whole numbers are weighed by the page's OCR.
      expect(
        line(text, family)
          .map((n) => n.text)
          .filter((t) => t.length > 1),
      ).toEqual([number]);
    });

    it('reads the total of a multi-buy line apart from its count ("٢ حبة ١٥ درهم")', () => {
      expect(line('٢ حبة ١٥ درهم', family).map((n) => n.text)).toContain('15');
    });

    it('finds no price with decimals in words alone', () => {
      expect(line('درهم ريال كيلو غرام السعر', family).filter((n) => n.text.includes('.'))).toEqual([]);
    });
  });
}

describe.runIf(existsSync(FACES['Noto Sans Arabic Bold']))('Arabic-Indic digits in small print', () => {
  it('reads the price of a former-price note ("السعر السابق ٣.٦٩ درهم", 22 px)', () => {
    GlobalFonts.registerFromPath(FACES['Noto Sans Arabic Bold'], 'Noto Sans Arabic Bold');
    expect(line('السعر السابق ٣.٦٩ درهم', 'Noto Sans Arabic Bold', 22, '#333').map((n) => n.text)).toContain(
      '3.69',
    );
  });
});
