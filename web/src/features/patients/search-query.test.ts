import { describe, expect, it } from 'vitest';
import { searchQueryFor } from './search-query.js';

describe('searchQueryFor', () => {
  it('reduces phone-like input to digits, or the stored form for a whole number', () => {
    expect(searchQueryFor('(415) 555')).toBe('415555');
    expect(searchQueryFor(' 555-01 ')).toBe('55501');
    expect(searchQueryFor('(415) 555-0111')).toBe('+14155550111');
  });

  it('sends names as typed, trimmed', () => {
    expect(searchQueryFor('  Grace Naka ')).toBe('Grace Naka');
    expect(searchQueryFor('   ')).toBe('');
    expect(searchQueryFor('55')).toBe('55');
  });
});
