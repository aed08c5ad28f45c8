// Dates typed or imported by a person (a subject's date of death or of photography) are checked
// as calendar dates, not as patterns: 2013-02-31 matches YYYY-MM-DD and is not a day. Proleptic
// Gregorian calendar (ISO 8601:2019 §4.2.1), years 0000–9999 as the four-digit form allows.

const PARTIAL = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/** Days in `month` (1–12) of `year`: leap years are divisible by 4, except centuries not by 400. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Whether `s` is a real date written YYYY, YYYY-MM or YYYY-MM-DD (a date may be known only to
 * the year or the month).
 *
 * @example
 *   isCalendarDate('2013-02-28') // true
 *   isCalendarDate('2013-02-31') // false
 *   isCalendarDate('2012-02-29') // true (leap year)
 */
export function isCalendarDate(s: string): boolean {
  const m = PARTIAL.exec(s);
  if (m === null) return false;
  if (m[2] === undefined) return true;
  const year = Number(m[1]);
  const month = Number(m[2]);
  if (month < 1 || month > 12) return false;
  if (m[3] === undefined) return true;
  const day = Number(m[3]);
  return day >= 1 && day <= daysInMonth(year, month);
}
