import { describe, expect, it } from 'vitest';
import { isCalendarDate } from './calendar-date.js';

describe('isCalendarDate', () => {
  it('refuses impossible days that match the pattern', () => {
    for (const s of ['2013-02-31', '2013-02-29', '1900-02-29', '2013-04-31', '2013-13', '2013-00', '2013-01-00', '2013-01-32'])
      expect(isCalendarDate(s), s).toBe(false);
  });

  it('accepts real days, leap days included, and dates known to the month or year', () => {
    for (const s of ['2013-02-28', '2012-02-29', '2000-02-29', '2013-12-31', '2013-04-30', '2013-11', '2013'])
      expect(isCalendarDate(s), s).toBe(true);
  });

  it('refuses other shapes', () => {
    for (const s of ['13-02-01', '2013-2-1', '2013/02/01', '2013-02-01T00:00', ' 2013', '2013-02-01\n', '٢٠١٣'])
      expect(isCalendarDate(s), JSON.stringify(s)).toBe(false);
  });
});
