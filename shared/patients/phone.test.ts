import { describe, expect, it } from 'vitest';
import { formatPhone, formatPhoneAsTyped, isAllowedPhoneInput, isPhoneLike, matchPhone, normalizePhone } from './phone.js';

describe('phone input and format', () => {
  it('allows only digits, parentheses, hyphen and space', () => {
    expect(isAllowedPhoneInput('(555) 010-1234')).toBe(true);
    expect(isAllowedPhoneInput('+15550101234')).toBe(true);
    expect(isAllowedPhoneInput('555.010.1234')).toBe(false);
    expect(isAllowedPhoneInput('555-010-123x')).toBe(false);
  });

  it('normalises to +1 plus 10 digits', () => {
    expect(normalizePhone('(555) 010-1234')).toBe('+15550101234');
    expect(normalizePhone('1 555 010 1234')).toBe('+15550101234');
    expect(normalizePhone('+15550101234')).toBe('+15550101234');
    expect(normalizePhone('555-0101')).toBeNull();
    expect(normalizePhone('+1512555001')).toBeNull();
    expect(normalizePhone('+5550101234')).toBeNull();
    expect(normalizePhone('555.010.1234')).toBeNull();
  });

  it('formats (xxx) xxx-xxxx', () => {
    expect(formatPhone('+15550101234')).toBe('(555) 010-1234');
    expect(formatPhone('5550101234')).toBe('(555) 010-1234');
    expect(formatPhone('12345')).toBe('12345');
    expect(formatPhone(undefined)).toBe('');
  });

  it('formats as the user types', () => {
    expect(formatPhoneAsTyped('55')).toBe('(55');
    expect(formatPhoneAsTyped('5550')).toBe('(555) 0');
    expect(formatPhoneAsTyped('5550101')).toBe('(555) 010-1');
    expect(formatPhoneAsTyped('555010123499')).toBe('(555) 010-1234');
  });
});

describe('isPhoneLike', () => {
  it('needs phone characters only and at least 3 digits', () => {
    expect(isPhoneLike('555')).toBe(true);
    expect(isPhoneLike('(555) 01')).toBe(true);
    expect(isPhoneLike('+1 555-010')).toBe(true);
    expect(isPhoneLike('55')).toBe(false);
    expect(isPhoneLike('maria')).toBe(false);
    expect(isPhoneLike('555 maria')).toBe(false);
  });
});

describe('matchPhone (spec shell §5 fuzzy rules)', () => {
  const phone = '+15550101234';
  it('matches the whole number exactly and as a prefix', () => {
    expect(matchPhone('(555) 010-1234', phone)).toBe('exact');
    expect(matchPhone('555', phone)).toBe('prefix');
    expect(matchPhone('1555', phone)).toBe('prefix');
  });
  it('matches a substring', () => {
    expect(matchPhone('0101', phone)).toBe('substring');
    expect(matchPhone('234', phone)).toBe('substring');
  });
  it('matches scrambled digits within a window', () => {
    expect(matchPhone('4321', phone)).toBe('scrambled');
    expect(matchPhone('5010', phone)).toBe('substring');
    expect(matchPhone('0011', phone)).toBe('scrambled');
  });
  it('matches a subsequence, and calls digits that are both in order and scrambled a subsequence', () => {
    expect(matchPhone('5014', phone)).toBe('subsequence');
    // 5,5,1,0 appear in order (5550101234) and also as the window 5501: in order is the closer match.
    expect(matchPhone('5510', phone)).toBe('subsequence');
  });
  it('rejects digits that are not there, and short queries', () => {
    expect(matchPhone('999', phone)).toBeNull();
    expect(matchPhone('4455', phone)).toBeNull();
    expect(matchPhone('55', phone)).toBeNull();
    expect(matchPhone('555', undefined)).toBeNull();
  });
});
