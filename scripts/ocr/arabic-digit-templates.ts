/**
 * Builds `src/providers/ocr/arabic-digit-templates.json`: the shapes of the Arabic-Indic (٠–٩) and
 * Persian (۰–۹) digits in the Arabic faces of Debian's font packages, for the display-digit reader
 * (`arabic-digits.ts`). Run after installing the packages named below:
 *   apt-get install fonts-noto-core fonts-noto-ui-core fonts-dejavu-core fonts-hosny-amiri \
 *     fonts-lemonada fonts-sil-scheherazade fonts-sil-lateef fonts-sil-harmattan
 *   node scripts/ocr/arabic-digit-templates.ts [--leave-out <file name part>]
 * Faces under the SIL Open Font Licence or a Bitstream-style free licence only. `--leave-out`
 * builds without some faces, to measure the reader on a face it has never seen.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { glyphShape, SHAPE_SIZE } from '../../src/providers/ocr/arabic-digits.ts';
import { components } from '../../src/providers/ocr/components.ts';

const FOLDERS = [
  '/usr/share/fonts/truetype/noto',
  '/usr/share/fonts/truetype/dejavu',
  '/usr/share/fonts/opentype/fonts-hosny-amiri',
  '/usr/share/fonts/opentype/lemonada',
  '/usr/share/fonts/truetype/scheherazade',
  '/usr/share/fonts/opentype/scheherazade',
  '/usr/share/fonts/opentype/lateef',
  '/usr/share/fonts/truetype/harmattan',
];
/**
 * The faces, by file: Noto's Sans, Naskh and Kufi (regular and bold), DejaVu Sans, Amiri, Lemonada,
 * Scheherazade, Lateef, Harmattan. More weights (fonts-noto-extra's light, black and condensed
 * Noto Sans Arabic, Thabit, Alkalami) were tried: the generated flyers lost 5 of 70 matches and
 * gained outliers, nearest shapes of odd weights winning over the right digit.
 */
const FACES = new Set(
  [
    'Amiri-Bold.ttf Amiri-Regular.ttf DejaVuSans-Bold.ttf DejaVuSans.ttf DejaVuSansCondensed-Bold.ttf',
    'DejaVuSansCondensed.ttf Harmattan-Bold.ttf Harmattan-Regular.ttf Lateef-Bold.ttf Lateef-ExtraBold.ttf',
    'Lateef-Medium.ttf Lateef-Regular.ttf Lateef-SemiBold.ttf Lemonada-Bold.otf Lemonada-Regular.otf',
    'Lemonada-SemiBold.otf NotoKufiArabic-Bold.ttf NotoKufiArabic-Regular.ttf NotoNaskhArabic-Bold.ttf',
    'NotoNaskhArabic-Regular.ttf NotoNaskhArabicUI-Bold.ttf NotoNaskhArabicUI-Regular.ttf',
    'NotoSansArabic-Bold.ttf NotoSansArabic-Regular.ttf NotoSansArabicUI-Bold.ttf NotoSansArabicUI-Regular.ttf',
    'Scheherazade-Bold.ttf Scheherazade-Regular.ttf',
  ]
    .join(' ')
    .split(' '),
);

const ARABIC = '٠١٢٣٤٥٦٧٨٩';
const PERSIAN = '۰۱۲۳۴۵۶۷۸۹';
const SIZE = 96;

const args = process.argv.slice(2);
const leaveOut = args[0] === '--leave-out' ? args[1] : undefined;
const out = args.includes('--out')
  ? args[args.indexOf('--out') + 1]!
  : 'src/providers/ocr/arabic-digit-templates.json';

const faces = FOLDERS.filter(existsSync)
  .flatMap((folder) => readdirSync(folder).map((file) => path.join(folder, file)))
  .filter((file) => FACES.has(path.basename(file)))
  .filter((file) => !leaveOut || !file.includes(leaveOut));

const templates: Array<{ digit: number; face: string; aspect: number; shape: string }> = [];
for (const file of faces) {
  const family = `T-${path.basename(file)}`;
  GlobalFonts.registerFromPath(file, family);
  for (const [digits, persian] of [
    [ARABIC, false],
    [PERSIAN, true],
  ] as const) {
    for (let digit = 1; digit <= 9; digit += 1) {
      // ۱۲۳۷۸۹ are the Arabic shapes again in most faces; only ۴۵۶ differ.
      if (persian && ![4, 5, 6].includes(digit)) continue;
      const glyph = drawGlyph(digits[digit]!, family);
      if (!glyph) continue;
      templates.push({ digit, face: path.basename(file), ...glyph });
    }
  }
}
writeFileSync(out, `${JSON.stringify({ size: SHAPE_SIZE, templates }, null, 0)}\n`);
console.log(`${templates.length} templates from ${faces.length} faces → ${out}`);

function drawGlyph(char: string, family: string): { aspect: number; shape: string } | undefined {
  const width = SIZE * 2;
  const height = SIZE * 2;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#000';
  g.font = `${SIZE}px "${family}"`;
  g.textBaseline = 'middle';
  g.fillText(char, SIZE * 0.5, SIZE);
  const rgba = g.getImageData(0, 0, width, height).data;
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i += 1) mask[i] = rgba[i * 4]! < 128 ? 1 : 0;
  const parts = components(mask, width, height).filter((c) => c.pixels > 4);
  if (parts.length === 0) return undefined;
  // The digit is its largest patch (a face may draw a stray dot apart).
  const main = parts.reduce((a, b) => (b.pixels > a.pixels ? b : a));
  return glyphShape(mask, width, main);
}
