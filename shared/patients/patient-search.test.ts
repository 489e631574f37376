import { describe, expect, it } from 'vitest';
import { rankPatients, scorePatient } from './patient-search.js';

const p = (id: string, firstName: string, lastName: string, phone?: string, extra: object = {}) => ({
  id,
  firstName,
  lastName,
  ...(phone ? { phones: [{ number: phone }] } : {}),
  ...extra,
});

const patients = [
  p('1', 'Maria', 'Lopez', '+15550101234'),
  p('2', 'Mario', 'Lopezz', '+15550104321'),
  p('3', 'Ana', 'Marin', '+15559990000'),
  p('4', 'Robert', 'Smith', undefined, { chosenFirstName: 'Bobby' }),
  p('5', 'Marianne', 'Olsen', '+15550001111'),
];

describe('patient search', () => {
  it('finds names by prefix, then equal scores by last name', () => {
    expect(rankPatients('mar', patients).map((x) => x.id)).toEqual(['1', '2', '3', '5']);
  });
  it('ranks a prefix above a contained match', () => {
    const list = [p('a', 'Omar', 'Aziz'), p('b', 'Marta', 'Zuniga')];
    expect(rankPatients('mar', list).map((x) => x.id)).toEqual(['b', 'a']);
    expect(rankPatients('arin', patients).map((x) => x.id)).toEqual(['3']);
  });
  it('needs every token to match and puts the exact name first', () => {
    expect(rankPatients('maria lopez', patients).map((x) => x.id)).toEqual(['1']);
    expect(rankPatients('lopez', patients).map((x) => x.id)).toEqual(['1', '2']);
  });
  it('matches chosen names', () => {
    expect(rankPatients('bobby', patients).map((x) => x.id)).toEqual(['4']);
  });
  it('is case and accent insensitive', () => {
    expect(rankPatients('LÓPEZ', patients).map((x) => x.id)).toEqual(['1', '2']);
  });
  it('ranks phone substring above scrambled digits', () => {
    expect(rankPatients('1234', patients).map((x) => x.id)).toEqual(['1', '2']);
    expect(rankPatients('4321', patients).map((x) => x.id)).toEqual(['2', '1']);
  });
  it('matches a formatted partial phone', () => {
    expect(rankPatients('(555) 999', patients).map((x) => x.id)).toEqual(['3']);
  });
  it('returns nothing for no match', () => {
    expect(scorePatient('zzz', patients[0])).toBe(0);
    expect(rankPatients('   ', patients)).toEqual([]);
  });
});
