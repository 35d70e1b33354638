/**
 * The validity range a flyer prints once ("gültig vom 12.10. bis 17.10.2020", "Angebote gültig
 * bis 17.10.", "valid until 10/17", "valid 10/12 - 10/17/2026", "valid through Oct 17"): the end
 * date applies to every offer of the flyer. A date without a year takes the upload's year, or the
 * next one when that would put it more than 60 days before the upload.
 */
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const GERMAN_MONTHS: Record<string, number> = { mär: 3, mai: 5, okt: 10, dez: 12 };

const DE_RANGE =
  /g[üu]ltig\s+(?:vom\s+|von\s+|ab\s+)?(?:\d{1,2}\.\d{1,2}\.?(?:\d{2,4})?\s*(?:bis(?:\s+(?:zum|einschließlich))?|-|–)\s*)?(?:bis(?:\s+zum)?\s+)?(?:\p{L}+,?\s+)?(\d{1,2})\.(\d{1,2})\.?(\d{4}|\d{2})?/iu;
const EN_NUMERIC =
  /valid\s+(?:from\s+)?(?:\d{1,2}\/\d{1,2}(?:\/\d{2,4})?\s*(?:-|–|to|through|thru|until)\s*|(?:until|through|thru|till|to|ends?)\s+)(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?/i;
const EN_WORDS =
  /valid\s+(?:until|through|thru|till|to)\s+([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?/i;

export function findValidUntil(text: string, uploadedAt: Date): string | undefined {
  const flat = text.replace(/\s+/g, ' ');
  const de = DE_RANGE.exec(flat);
  if (de) return toDate(Number(de[1]), Number(de[2]), de[3], uploadedAt);
  const en = EN_NUMERIC.exec(flat);
  if (en) return toDate(Number(en[2]), Number(en[1]), en[3], uploadedAt);
  const words = EN_WORDS.exec(flat);
  if (words) {
    const key = words[1]!.toLowerCase();
    const month = MONTHS.indexOf(key) + 1 || GERMAN_MONTHS[key] || 0;
    if (month) return toDate(Number(words[2]), month, words[3], uploadedAt);
  }
  return undefined;
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
