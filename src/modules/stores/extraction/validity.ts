/**
 * The validity range a flyer prints once ("gültig vom 12.10. bis 17.10.2020", "Angebote gültig
 * bis 17.10.", "valid until 10/17", "valid 10/12 - 10/17/2026", "valid through Oct 17", "sale
 * ends 10/17", "valid until 17 October"), wherever it stands on its line: the end
 * date applies to every offer of the flyer. A date without a year takes the upload's year, or the
 * next one when that would put it more than 60 days before the upload.
 */
/** English and German month names by their first three letters. */
const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  mär: 3,
  apr: 4,
  may: 5,
  mai: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  okt: 10,
  nov: 11,
  dec: 12,
  dez: 12,
};
const MONTH_NAME = '(jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])[a-zä]*\\.?';

/** Words that open a validity statement; the dates in the few words after one are its range. */
const KEYWORD = /g[üu]ltig|gelten|valid|sale ends|offers? end|ends|until|through|thru|\bbis\b/giu;
const WINDOW = 60;

/** The date forms flyers print, each with the positions of day, month (number or name) and year. */
const DATE_FORMS: Array<{ re: RegExp; day: number; month: number; year: number; named: boolean }> = [
  // 17.10.  17.10.2030  17.10.30  (not a price: no digit may follow)
  { re: /\b(\d{1,2})\.(\d{1,2})(?:\.(\d{4}|\d{2})?)?(?![\d,])/g, day: 1, month: 2, year: 3, named: false },
  // 10/17  10/17/2030
  { re: /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?(?!\d)/g, day: 2, month: 1, year: 3, named: false },
  // Oct 17, 2030
  {
    re: new RegExp(`\\b${MONTH_NAME}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`, 'giu'),
    day: 2,
    month: 1,
    year: 3,
    named: true,
  },
  // 17 October 2030, 17. Oktober
  {
    re: new RegExp(`\\b(\\d{1,2})\\.?\\s+${MONTH_NAME}(?:\\s+(\\d{4}))?`, 'giu'),
    day: 1,
    month: 2,
    year: 3,
    named: true,
  },
];

/**
 * The end of the first validity statement in the text: after a keyword ("gültig", "valid",
 * "sale ends", "bis", …), the last date within a few words ("vom 12.10. bis 17.10." ends on the
 * 17th).
 */
export function findValidUntil(text: string, uploadedAt: Date): string | undefined {
  const flat = text.replace(/\s+/g, ' ');
  for (const keyword of flat.matchAll(KEYWORD)) {
    const window = flat.slice(keyword.index, keyword.index + keyword[0].length + WINDOW);
    const last = datesIn(window, uploadedAt)
      .sort((a, b) => a.at - b.at)
      .at(-1);
    if (last) return last.date;
  }
  return undefined;
}

function datesIn(window: string, uploadedAt: Date): Array<{ at: number; date: string }> {
  const found: Array<{ at: number; date: string }> = [];
  for (const form of DATE_FORMS) {
    for (const m of window.matchAll(form.re)) {
      const month = form.named ? monthNumber(m[form.month]!) : Number(m[form.month]);
      const date = month ? toDate(Number(m[form.day]), month, m[form.year], uploadedAt) : undefined;
      if (date) found.push({ at: m.index + m[0].length, date });
    }
  }
  return found;
}

function monthNumber(name: string): number {
  return MONTHS[name.toLowerCase().slice(0, 3)] ?? 0;
}

/** A week from the upload: the default when the flyer prints no validity. */
export function defaultValidUntil(uploadedAt: Date): string {
  return new Date(uploadedAt.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
}

function toDate(
  day: number,
  month: number,
  rawYear: string | undefined,
  uploadedAt: Date,
): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  let year = rawYear ? Number(rawYear.length === 2 ? `20${rawYear}` : rawYear) : uploadedAt.getUTCFullYear();
  let date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return undefined;
  if (!rawYear && date.getTime() < uploadedAt.getTime() - 60 * 86_400_000) {
    year += 1;
    date = new Date(Date.UTC(year, month - 1, day));
  }
  return date.toISOString().slice(0, 10);
}
