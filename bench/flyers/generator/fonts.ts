import { existsSync } from 'node:fs';
import { GlobalFonts } from '@napi-rs/canvas';

/**
 * Faces real flyers use, from Debian's font packages (fonts-roboto, fonts-liberation,
 * fonts-noto-core; fonts-dejavu-core as the fallback every Debian has). Each role takes the first
 * file present, so a machine with fewer packages still draws, with plainer faces.
 */
const CANDIDATES = {
  condensed: [
    '/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Bold.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf',
  ],
  bold: [
    '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
    '/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  ],
  regular: [
    '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
    '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  ],
  arabic: [
    '/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf',
    '/usr/share/fonts/truetype/noto/NotoNaskhArabic-Bold.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  ],
} as const;

export type FontRole = keyof typeof CANDIDATES;

/** The Debian packages that hold the preferred faces (README and .ci/run install them). */
export const FONT_PACKAGES = ['fonts-roboto', 'fonts-liberation', 'fonts-noto-core', 'fonts-dejavu-core'];

let registered: Record<FontRole, string> | undefined;

/**
 * Registers one face per role and returns the family list to use in `ctx.font`: each role falls
 * back to the other script's face, so a Latin price in an Arabic tile (and the reverse) still draws.
 */
export function flyerFonts(): Record<FontRole, string> {
  if (registered) return registered;
  const families = {} as Record<FontRole, string>;
  for (const role of Object.keys(CANDIDATES) as FontRole[]) {
    const file = CANDIDATES[role].find((f) => existsSync(f));
    if (!file) {
      throw new Error(`no font for ${role}: install one of the Debian packages ${FONT_PACKAGES.join(', ')}`);
    }
    const family = `Flyer-${role}`;
    GlobalFonts.registerFromPath(file, family);
    families[role] = role === 'arabic' ? `${family}, Flyer-bold` : `${family}, Flyer-arabic`;
  }
  registered = families;
  return families;
}

/** Whether every role has a face on this machine. */
export function flyerFontsAvailable(): boolean {
  return Object.values(CANDIDATES).every((files) => files.some((f) => existsSync(f)));
}

/** Whether the preferred face of every role is installed (figures measured with them). */
export function preferredFlyerFontsAvailable(): boolean {
  return Object.values(CANDIDATES).every((files) => existsSync(files[0]));
}
