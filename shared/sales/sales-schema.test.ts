import { describe, expect, it } from 'vitest';
import { formatCents, saleTotals } from './sales-schema.js';

describe('sale totals', () => {
  it('adds the lines and the sales tax on the subtotal, rounded half up to the cent', () => {
    expect(saleTotals([{ lineTotalInCents: 15000 }, { lineTotalInCents: 597 }], 8.25)).toEqual({
      subtotalInCents: 15597,
      salesTaxPercentage: 8.25,
      taxInCents: 1287,
      totalInCents: 16884,
    });
    expect(saleTotals([{ lineTotalInCents: 200 }], 2.5)).toEqual({ subtotalInCents: 200, salesTaxPercentage: 2.5, taxInCents: 5, totalInCents: 205 });
    expect(saleTotals([], 0)).toEqual({ subtotalInCents: 0, salesTaxPercentage: 0, taxInCents: 0, totalInCents: 0 });
  });

  it('shows cents as dollars', () => {
    expect(formatCents(3500)).toBe('$35.00');
    expect(formatCents(25)).toBe('$0.25');
    expect(formatCents(123456)).toBe('$1,234.56');
  });
});
