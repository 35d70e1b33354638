/**
 * The validity a flyer prints ("gültig vom 12.10. bis 17.10.2020", "valid until 2026-12-01",
 * "Flyer in effect August 14-20, 2025", "14.–20.8.", "SALES From 12/17/2025 To 12/25/2025",
 * "Ofertas válidas até 25/04/2026", "dal 3 al 12 marzo", "du 14 au 20 août"): the end of a range of
 * two dates, or the last date after a validity keyword. A date without a year takes the upload's
 * year, or the next one when that would put it more than 60 days before the upload.
 *
 * A price is never read as a date: numeric dates need their separators in full ("17.10." or
 * "17.10.2025", never "3.11"), and the text looked at after a keyword stops at the first price.
 */

/** Month names (first three letters, or the whole word where three are ambiguous), many languages. */
const MONTH_WORDS: Array<[RegExp, number]> = [
  [/^(jan|gen|ene)/, 1],
  [/^(feb|fév|fev|fév)/, 2],
  [/^(mar|mär|mrz|maa)/, 3],
  [/^(apr|avr|abr)/, 4],
  [/^(may|mai|mag|mayo|maio|mei)/, 5],
  [/^(jun|juin|giu)/, 6],
  [/^(jul|juil|lug)/, 7],
  // OCR drops or misreads août's û as one or two thin letters: "aot", "aoit", "aofit", "aoilt".
  [/^(aug|aoû|aou|ao[ûüuifl]{0,2}t|ago)/, 8],
  [/^(sep|set)/, 9],
  [/^(oct|okt|ott|out)/, 10],
  [/^(nov)/, 11],
  [/^(dec|dez|déc|dic)/, 12],
];
/**
 * A month's name, whole: "Junho" is not "Jun" and "ho", which left the year after it unread; a name
 * no form spells is no month (Spanish "junio", "octubre", "diciembre" were none).
 */
const MONTH_NAME =
  '(jan(?:uary|vier|uar|uari|eiro)?|genn(?:aio)?|ene(?:ro)?|feb(?:ruary|ruar|ruari|braio|rero)?|f[ée]v(?:rier|ereiro)?|mar(?:ch|s|zo|ço|co)?|m[äa]rz|mrz|maart|apr(?:il|ile)?|avr(?:il)?|abr(?:il)?|ma[iy]|maggio|mayo|maio|mei|jun(?:e|i|io|ho)?|juin|giugno|jul(?:y|i|io|ho)?|juil(?:let)?|luglio|aug(?:ust|ustus)?|ao[ûüuifl]{0,2}t|ago(?:sto)?|sep(?:tember|tembre|tiembre)?|sept|set(?:embro|tembre|iembre)?|oct(?:ober|obre|ubre)?|okt(?:ober)?|ott(?:obre)?|out(?:ubro)?|nov(?:ember|embre|embro|iembre)?|de[cz](?:ember)?|d[ée]c(?:embre)?|dic(?:embre|iembre)?|dezembro)(?!\\p{L})\\.?';

/** Words that open a validity statement, in the languages flyers print. */
const KEYWORD =
  /g[üu]ltig|gelten|valid|valable|geldig|v[áa]lid[oa]s?|validit|in effect|effective|sale ends|offers? end|ends|(?<!\p{L})end(?!\p{L})|until|through|thru|\bbis\b|(?<![\p{L}\p{N}])at[ée](?![\p{L}\p{N}])|hasta|\bfino al\b|jusqu|معتبر|سارية|ساري|صالحة?|حتى/giu;
/** Joins the two ends of a range. */
const RANGE = '\\s*(?:-|–|—|to|bis|au|al|a|até|ate|hasta|e|y|und|et|t/m|tot en met|tot|تا|إلى|الى|حتى)\\s*';
const WINDOW = 60;
/** A day's ordinal ending: "17th", "23rd", "1er", "1º". */
const ORDINAL = '(?:st|nd|rd|th|er|º|ª)?';
/**
 * A weekday's name before a day's number or a month's name ("du mercredi 17 au mardi 23 décembre",
 * "Wed 12/17", "Mo. 15.12.", "Tue. Dec. 23"): left out, so that the two dates read as a range.
 */
const WEEKDAY_BEFORE_DAY = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[
    'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun',
    'lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lun|mer|jeu|ven|sam|dim',
    'lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo|mié|jue|vie|sáb|dom',
    'segunda|terça|terca|quarta|quinta|sexta|seg|ter|qua|qui|sex',
    'lunedì|lunedi|martedì|martedi|mercoledì|mercoledi|giovedì|giovedi|venerdì|venerdi|sabato|domenica',
    'montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonnabend|sonntag|mo|di|mi|do|fr|sa|so',
    'maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag|ma|wo|vr|za|zo',
  ].join('|')})(?:-feira)?\\.?,?\\s+(?=\\d|${MONTH_NAME})`,
  'giu',
);
/**
 * Tuesday's short name in French, Spanish and Italian, "mar.", is March's in English ("Mar 8"):
 * a weekday only after a range's own words ("du mar. 2 au lun. 8 déc.", "del mar 1 al dom 6").
 */
const TUESDAY_BEFORE_DAY = /(?<=(?<![\p{L}\p{N}])(?:du|au|dal|al|del|de|a)\s+)mar\.?,?\s+(?=\d)/giu;
/** A price ends the text a keyword's dates are looked for in. */
const PRICE = /(?:R\$|€|\$|£|EUR\b)\s*\d|\d+,\d{2}(?!\d)|\d+[.,]\d{2}\s*(?:€|\$|EUR\b)|\d+¢/iu;

interface DateHit {
  /** Where the match starts and ends in the text looked at. */
  from: number;
  at: number;
  date: string;
}

/**
 * Words that make the date after them the first day ("gültig ab 15.12.", "valid from 12/17",
 * "válido a partir de 17/12"), not the last: taken as the end, every offer would expire the day
 * it starts.
 */
const STARTS_AT =
  /(?:^|[^\p{L}])(?:ab|from|starting|beginning|a partir de|à partir du|à partir de|a partir del|desde|dès le|dal|vanaf)\s*$/iu;
/** A flyer that prints only its first day runs a week: its last day is six days later. */
const WEEK_AFTER_START_DAYS = 6;

interface Reading {
  uploadedAt: Date;
  /** Day before month in numeric dates with slashes (everywhere but North America). */
  dayFirst: boolean;
}

/**
 * The end of the flyer's validity printed in `text`: the end of the first range of two dates, else
 * the last date within a few words after the first validity keyword that is followed by one.
 */
export function findValidUntil(text: string, uploadedAt: Date): string | undefined {
  const flat = withDigitsRead(text.normalize('NFKC').replace(/\s+/g, ' '))
    .replace(WEEKDAY_BEFORE_DAY, '')
    .replace(TUESDAY_BEFORE_DAY, '');
  const reading: Reading = { uploadedAt, dayFirst: dayFirstIn(flat) };
  const range = firstRange(flat, reading);
  if (range) return range;
  // A first day printed alone counts only when no statement prints the last one.
  let firstDay: string | undefined;
  for (const keyword of flat.matchAll(KEYWORD)) {
    const after = flat.slice(keyword.index, keyword.index + keyword[0].length + WINDOW);
    const price = PRICE.exec(after.slice(keyword[0].length));
    const window = price ? after.slice(0, keyword[0].length + price.index) : after;
    const last = datesIn(window, reading)
      .sort((a, b) => a.at - b.at)
      .at(-1);
    if (!last) continue;
    if (!STARTS_AT.test(window.slice(0, last.from))) return last.date;
    firstDay ??= last.date;
  }
  return firstDay ? daysAfter(firstDay, WEEK_AFTER_START_DAYS) : calendarWeekEnd(flat, uploadedAt);
}

/**
 * German flyers' calendar week ("KW 49", "KW49/2026", "Kalenderwoche 49"; "kW" is a kilowatt): when
 * no date is printed, the flyer runs that ISO week, whose Saturday is the shop week's last day.
 */
const CALENDAR_WEEK = /(?<![\p{L}\p{N}])(?:KW|Kalenderwoche)\.?\s*(\d{1,2})(?:\s*[/-]\s*(\d{4}))?(?![\d,.])/u;
const SATURDAY_AFTER_MONDAY_DAYS = 5;

function calendarWeekEnd(text: string, uploadedAt: Date): string | undefined {
  const match = CALENDAR_WEEK.exec(text);
  if (!match) return undefined;
  const week = Number(match[1]);
  const year = uploadedAt.getUTCFullYear();
  // Without its year, the week nearest the upload (a flyer of week 1 read in late December).
  const years = match[2] ? [Number(match[2])] : [year - 1, year, year + 1];
  const mondays = years
    .map((y) => isoWeekMonday(y, week))
    .filter((monday): monday is number => monday !== undefined)
    .sort((a, b) => Math.abs(a - uploadedAt.getTime()) - Math.abs(b - uploadedAt.getTime()));
  const monday = mondays[0];
  if (monday === undefined) return undefined;
  const saturday = monday + SATURDAY_AFTER_MONDAY_DAYS * 86_400_000;
  if (!match[2] && Math.abs(saturday - uploadedAt.getTime()) > MAX_DAYS_AHEAD * 86_400_000) return undefined;
  return new Date(saturday).toISOString().slice(0, 10);
}

/** The Monday of ISO week `week` of `year` (week 1 holds 4 January), or none when the year has no such week. */
function isoWeekMonday(year: number, week: number): number | undefined {
  if (week < 1 || week > 53) return undefined;
  const monday = firstIsoMonday(year) + (week - 1) * 7 * 86_400_000;
  // Week 53 exists only in years whose next week 1 starts a week after it.
  return week === 53 && monday >= firstIsoMonday(year + 1) ? undefined : monday;
}

function firstIsoMonday(year: number): number {
  const fourth = Date.UTC(year, 0, 4);
  const weekday = (new Date(fourth).getUTCDay() + 6) % 7; // Monday 0
  return fourth - weekday * 86_400_000;
}

/**
 * North-American flyers print month/day; the rest of the world day/month. The currency and the
 * language of the page tell which.
 */
function dayFirstIn(text: string): boolean {
  // A slashed date whose one part is over 12 shows the page's order ("4/15 - 4/21": month first).
  for (const [, a, b] of text.matchAll(/(?<![\d/])(\d{1,2})\/(\d{1,2})(?![\d])/gu)) {
    if (Number(a) > 12 && Number(b) <= 12) return true;
    if (Number(b) > 12 && Number(a) <= 12) return false;
  }
  if (/R\$|€|£|\b(válid|valid[oa]|até|dal|fino|gültig|du\b|jusqu|ofertas?|offerte|angebot)/iu.test(text))
    return true;
  return !/\$|¢/.test(text);
}

/** Two dates joined by a range word: "14.–20.8.", "August 14-20, 2025", "12/17/2025 To 12/25/2025". */
function firstRange(text: string, reading: Reading): string | undefined {
  const forms = rangeForms();
  let best: { index: number; date: string } | undefined;
  for (const { re, end } of forms) {
    for (const m of text.matchAll(re)) {
      const date = end(m, reading);
      if (date && (!best || m.index < best.index)) best = { index: m.index, date };
    }
  }
  return best?.date;
}

function rangeForms(): Array<{ re: RegExp; end: (m: RegExpMatchArray, r: Reading) => string | undefined }> {
  const numeric = '(\\d{1,2})[./](\\d{1,2})(?:[./](\\d{4}|\\d{2}))?\\.?';
  return [
    // ISO to ISO: 2025-08-14 - 2025-08-20 (the later one ends it: a right-to-left line, its words
    // laid out left to right, reads "2025-08-20 تا 2025-08-14")
    {
      re: new RegExp(`\\b(\\d{4})-(\\d{2})-(\\d{2})${RANGE}(\\d{4})-(\\d{2})-(\\d{2})\\b`, 'giu'),
      end: (m, r) =>
        later(
          toDate(Number(m[3]), Number(m[2]), m[1], r.uploadedAt),
          toDate(Number(m[6]), Number(m[5]), m[4], r.uploadedAt),
        ),
    },
    // full numeric to full numeric: 12/17/2025 To 12/25/2025, 12.10. - 19.10.2030
    {
      re: new RegExp(`\\b${numeric}${RANGE}${numeric}(?![\\d,])`, 'giu'),
      end: (m, r) => {
        if (!dotted(m[0], m[6])) return undefined;
        const slashed = m[0].includes('/');
        const last = numericDate(m[4]!, m[5]!, m[6], slashed, r);
        // Both dates carry their year: the later one ends the range, whichever side it stands on.
        return m[3] && m[6] ? later(numericDate(m[1]!, m[2]!, m[3], slashed, r), last) : last;
      },
    },
    // day to day of one month: 14.–20.8.2025, 07 e 08/01/2026, 17 a 23/06
    {
      re: new RegExp(
        `\\b(\\d{1,2})\\.?${RANGE}(\\d{1,2})[./](\\d{1,2})(?:[./](\\d{4}|\\d{2}))?\\.?(?![\\d,])`,
        'giu',
      ),
      end: (m, r) =>
        (m[0].includes('/') && !r.dayFirst) || !dotted(m[0], m[4])
          ? undefined
          : toDate(Number(m[2]), Number(m[3]), m[4], r.uploadedAt),
    },
    // August 14-20, 2025
    {
      re: new RegExp(
        `\\b${MONTH_NAME}\\s+(\\d{1,2})${ORDINAL}${RANGE}(\\d{1,2})${ORDINAL}(?![\\p{L}\\p{N}])(?:,?\\s+(\\d{4}))?`,
        'giu',
      ),
      end: (m, r) => toDate(Number(m[3]), monthNumber(m[1]!), m[4], r.uploadedAt),
    },
    // Aug 14 - Aug 20(, 2025)
    {
      re: new RegExp(
        `\\b${MONTH_NAME}\\s+\\d{1,2}${ORDINAL}${RANGE}${MONTH_NAME}\\s+(\\d{1,2})${ORDINAL}(?![\\p{L}\\p{N}])(?:,?\\s+(\\d{4}))?`,
        'giu',
      ),
      end: (m, r) => toDate(Number(m[3]), monthNumber(m[2]!), m[4], r.uploadedAt),
    },
    // 28 October - 3 November, du 28 octobre au 3 novembre, del 28 de octubre al 3 de noviembre
    {
      re: new RegExp(
        `\\b\\d{1,2}(?:\\.|${ORDINAL})\\s+(?:de\\s+|of\\s+)?${MONTH_NAME}${RANGE}(\\d{1,2})(?:\\.|${ORDINAL})\\s+(?:de\\s+|of\\s+)?${MONTH_NAME}(?:\\s+(?:de\\s+)?(\\d{4}))?`,
        'giu',
      ),
      end: (m, r) => toDate(Number(m[2]), monthNumber(m[3]!), m[4], r.uploadedAt),
    },
    // 14-20 August 2025, dal 3 al 12 marzo, du 14 au 20 août, 14 a 20 de junho
    {
      re: new RegExp(
        `\\b\\d{1,2}(?:\\.|${ORDINAL})${RANGE}(\\d{1,2})(?:\\.|${ORDINAL})\\s+(?:de\\s+|of\\s+)?${MONTH_NAME}(?:\\s+(?:de\\s+)?(\\d{4}))?`,
        'giu',
      ),
      end: (m, r) => toDate(Number(m[1]), monthNumber(m[2]!), m[3], r.uploadedAt),
    },
  ];
}

function later(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined || b === undefined ? (b ?? a) : a > b ? a : b;
}

/** A dotted numeric date is whole only with its closing dot or its year ("3.11" is a price). */
function dotted(text: string, year: string | undefined): boolean {
  return text.includes('/') || year !== undefined || text.endsWith('.');
}

/** The date forms flyers print on their own. */
function datesIn(window: string, reading: Reading): DateHit[] {
  const found: DateHit[] = [];
  const push = (m: RegExpMatchArray, date: string | undefined) => {
    if (date) found.push({ from: m.index!, at: m.index! + m[0].length, date });
  };
  // 2026-12-01
  for (const m of window.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g))
    push(m, toDate(Number(m[3]), Number(m[2]), m[1], reading.uploadedAt));
  // 17.10.  17.10.2030  17.10.30 (the closing dot or the year is required: "3.11" is a price)
  for (const m of window.matchAll(/\b(\d{1,2})\.(\d{1,2})(?:\.(\d{4}|\d{2})|\.)(?![\d,])/g))
    push(m, toDate(Number(m[1]), Number(m[2]), m[3], reading.uploadedAt));
  // 10/17  17/10  10/17/2030
  for (const m of window.matchAll(/\b(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?(?![\d,])/g))
    push(m, numericDate(m[1]!, m[2]!, m[3], true, reading));
  // Oct 17, 2030
  for (const m of window.matchAll(
    new RegExp(`\\b${MONTH_NAME}\\s+(\\d{1,2})${ORDINAL}(?![\\p{L}\\p{N}])(?:,?\\s+(\\d{4}))?`, 'giu'),
  ))
    push(m, toDate(Number(m[2]), monthNumber(m[1]!), m[3], reading.uploadedAt));
  // 17 October 2030, 17. Oktober, 25 de abril de 2026
  for (const m of window.matchAll(
    new RegExp(
      `\\b(\\d{1,2})(?:\\.|${ORDINAL})\\s+(?:de\\s+|of\\s+)?${MONTH_NAME}(?:\\s+(?:de\\s+)?(\\d{4}))?`,
      'giu',
    ),
  ))
    push(m, toDate(Number(m[1]), monthNumber(m[2]!), m[3], reading.uploadedAt));
  return found;
}

/** A numeric date; with slashes, day and month follow the page's convention unless one is > 12. */
function numericDate(a: string, b: string, year: string | undefined, slashed: boolean, r: Reading) {
  let [day, month] = [Number(a), Number(b)];
  if (slashed) {
    const dayFirst = Number(a) > 12 ? true : Number(b) > 12 ? false : r.dayFirst;
    [day, month] = dayFirst ? [Number(a), Number(b)] : [Number(b), Number(a)];
  }
  return toDate(day, month, year, r.uploadedAt);
}

function monthNumber(name: string): number {
  const word = name.toLowerCase().replace(/\.$/, '');
  return MONTH_WORDS.find(([re]) => re.test(word))?.[1] ?? 0;
}

function daysAfter(date: string, days: number): string {
  return new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * OCR's letters for digits in a numeric date ("25/O4/2026", "4/l7", "23/O4"): O for 0, l, I and |
 * for 1. Only in a word of digits joined by slashes or dots that holds a digit and no other letter.
 */
function withDigitsRead(text: string): string {
  return text.replace(/(?<![\p{L}\d])[\dOlI|]{1,4}(?:[/.][\dOlI|]{1,4}){1,2}\.?(?![\p{L}\d])/gu, (word) =>
    /\d/u.test(word) ? word.replace(/O/gu, '0').replace(/[lI|]/gu, '1') : word,
  );
}

/** How far after the upload a date printed without its year may be. */
const MAX_DAYS_AHEAD = 120;

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
  // A flyer is read while it runs: a year-less date months ahead is a misreading ("4/2l" as 4 February).
  if (!rawYear && date.getTime() > uploadedAt.getTime() + MAX_DAYS_AHEAD * 86_400_000) return undefined;
  return date.toISOString().slice(0, 10);
}
