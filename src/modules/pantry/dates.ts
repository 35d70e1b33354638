import { z } from 'zod';

/** Calendar dates as `YYYY-MM-DD` strings, always in UTC (no time-zone shifts). */
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date: 2026-02-30 is refused, 2028-02-29 accepted. */
export function isRealDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

export const IsoDate = z
  .string()
  .refine(isRealDate, { message: 'must be a real date in the form YYYY-MM-DD' })
  .meta({ format: 'date', example: '2026-11-23' });

/** The UTC calendar date of an instant. */
export const utcDate = (instant: Date): string => instant.toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return utcDate(d);
}
