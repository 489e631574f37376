import { describe, expect, it } from 'vitest';
import { digitsFromSpoken } from './spoken-numbers.js';

describe('spoken numbers', () => {
  it('turns runs of number words into digits', () => {
    expect(digitsFromSpoken('blood pressure is one hundred thirty over eighty')).toBe('blood pressure is 130 over 80');
    expect(digitsFromSpoken('temperature ninety eight point six')).toBe('temperature 98.6');
    expect(digitsFromSpoken('ibuprofen four hundred milligrams')).toBe('ibuprofen 400 milligrams');
    expect(digitsFromSpoken('follow up in two weeks')).toBe('follow up in 2 weeks');
    expect(digitsFromSpoken('twenty five milligrams')).toBe('25 milligrams');
    expect(digitsFromSpoken('one thousand two hundred')).toBe('1200');
    expect(digitsFromSpoken('two three')).toBe('2 3');
  });
});
