import { addDays, utcDate } from '../pantry/dates.ts';

export const DAY_NAMES = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

/** 0 = Monday … 6 = Sunday, of a `YYYY-MM-DD` date. */
export function dayIndex(date: string): number {
  return (new Date(`${date}T00:00:00.000Z`).getUTCDay() + 6) % 7;
}

export const isMonday = (date: string): boolean => dayIndex(date) === 0;

/** The Monday (UTC) of the week an instant falls in. */
export function weekStartOf(instant: Date): string {
  const today = utcDate(instant);
  return addDays(today, -dayIndex(today));
}
