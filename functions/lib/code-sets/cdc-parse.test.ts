import { describe, expect, it } from 'vitest';
import { parseCvx, searchVaccineCodes } from './cdc-parse.js';
import { CVX_STARTER_ROWS } from './vaccine-starter.js';

const cvx = parseCvx(CVX_STARTER_ROWS.join('\n'));
const names = (keyword: string) => searchVaccineCodes(cvx, keyword, false).map((c) => c.shortDescription);

describe('vaccine code search', () => {
  it('lists influenza vaccines for "influ" above vaccines whose long name only mentions Haemophilus influenzae', () => {
    const found = names('influ');
    const firstHib = found.findIndex((n) => /Hib/.test(n));
    const influenza = found.filter((n) => /^Influenza/.test(n));
    expect(influenza.length).toBeGreaterThan(3);
    expect(found.slice(0, influenza.length)).toEqual(influenza);
    expect(firstHib).toBeGreaterThanOrEqual(influenza.length);
  });

  it('puts a name that starts a word before one that merely contains the text', () => {
    const codes = [
      { cvxCode: '1', shortDescription: 'Zoster recombinant', fullName: 'zoster', status: 'Active', nonVaccine: false },
      { cvxCode: '2', shortDescription: 'Antizoster', fullName: 'x', status: 'Active', nonVaccine: false },
      { cvxCode: '3', shortDescription: 'Other', fullName: 'for zoster prevention', status: 'Active', nonVaccine: false },
    ];
    expect(searchVaccineCodes(codes, 'zoster', false).map((c) => c.cvxCode)).toEqual(['1', '2', '3']);
    expect(searchVaccineCodes(codes, '3', false).map((c) => c.cvxCode)).toEqual(['3']);
  });

  it('still finds codes by CVX code first', () => {
    expect(names('115')[0]).toBe('Tdap');
  });
});
