import { describe, expect, it } from 'vitest';
import { receiptPath } from './receipt.js';

describe('receiptPath', () => {
  it('puts the receipt beside the bag, never inside it', () => {
    expect(receiptPath('/cases/bag-12')).toBe('/cases/bag-12.receipt.json');
    expect(receiptPath('/cases/bag-12/')).toBe('/cases/bag-12.receipt.json');
    expect(receiptPath('relative/bag')).toBe('relative/bag.receipt.json');
  });

  it('replaces the .zip of a zipped bag (any case)', () => {
    expect(receiptPath('/cases/bag-12.zip')).toBe('/cases/bag-12.receipt.json');
    expect(receiptPath('/cases/bag-12.ZIP')).toBe('/cases/bag-12.receipt.json');
    expect(receiptPath('/cases/bag.zip.d')).toBe('/cases/bag.zip.d.receipt.json');
  });
});
