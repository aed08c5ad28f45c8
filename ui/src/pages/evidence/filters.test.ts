import { describe, expect, it } from 'vitest';
import { activeFilterCount, apiQuery, formatFilters, parseFilters } from './filters';

describe('the evidence browser filters in the URL', () => {
  it('round-trips every filter through the query string, defaults left out', () => {
    const search =
      'delivery=01HZX3K4ZJ8Q6V9W2N5R7T1BCD&camera=Beta+One&taken_from=2024-03-01&taken_to=2024-03-31&unit=01HZX3K4ZJ8Q6V9W2N5R7T1BCE&indicator=EXIF_MISSING&cluster=c-12&sampled=yes&examined=no&sort=name&order=desc&view=list';
    const f = parseFilters(search);
    expect(formatFilters(f)).toBe(search);
    expect(activeFilterCount(f)).toBe(9);
    expect(apiQuery(f)).toEqual({
      delivery: '01HZX3K4ZJ8Q6V9W2N5R7T1BCD',
      camera: 'Beta One',
      taken_from: '2024-03-01',
      taken_to: '2024-03-31',
      unit: '01HZX3K4ZJ8Q6V9W2N5R7T1BCE',
      indicator: 'EXIF_MISSING',
      cluster: 'c-12',
      sampled: true,
      examined: false,
      sort: 'name',
      order: 'desc',
    });
    expect(formatFilters(parseFilters(''))).toBe('');
  });

  it('drops what the server would refuse instead of sending it (a hand-edited URL)', () => {
    const f = parseFilters(
      'delivery=not-a-ulid&taken_from=yesterday&indicator=NOPE&sampled=maybe&sort=size&order=up&view=tiles&cluster=a%20b',
    );
    expect(f).toEqual({ sort: 'received', order: 'asc', view: 'grid' });
    expect(apiQuery(f)).toEqual({ sort: 'received', order: 'asc' });
  });
});
