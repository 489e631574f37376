import { describe, expect, it } from 'vitest';
import { matchReasonLabel, preparePatient, rankPatients, rankPrepared, scorePatient } from './patient-search.js';

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
  it('ranks a phone fragment as one run first, then in order with gaps, then scrambled, and says which', () => {
    const family = [
      p('scrambled', 'Abe', 'Adams', '+12065550124'),
      p('in-order', 'Mia', 'Moss', '+13055501342'),
      p('run', 'Zed', 'Young', '+13055550142'),
      p('none', 'Al', 'Aaron', '+13055559999'),
    ];
    const ranked = rankPrepared('555-0142', family.map(preparePatient));
    expect(ranked.map((r) => [r.entry.patient.id, r.reason])).toEqual([
      ['run', { by: 'phone', kind: 'substring' }],
      ['in-order', { by: 'phone', kind: 'subsequence' }],
      ['scrambled', { by: 'phone', kind: 'scrambled' }],
    ]);
    expect(ranked.map((r) => matchReasonLabel(r.reason))).toEqual([
      'Phone number match',
      'Phone has these digits in order',
      'Phone has these digits in another order',
    ]);
  });
  it('says a name search matched by name, reporting the weakest token', () => {
    expect(rankPrepared('maria lopez', patients.map(preparePatient)).map((r) => r.reason)).toEqual([{ by: 'name', kind: 'exact' }]);
    expect(rankPrepared('mar lop', patients.map(preparePatient)).map((r) => r.reason)).toEqual([
      { by: 'name', kind: 'prefix' },
      { by: 'name', kind: 'prefix' },
    ]);
    expect(matchReasonLabel({ by: 'name', kind: 'contains' })).toBeNull();
  });
  it('matches a formatted partial phone', () => {
    expect(rankPatients('(555) 999', patients).map((x) => x.id)).toEqual(['3']);
  });
  it('returns nothing for no match', () => {
    expect(scorePatient('zzz', patients[0])).toBe(0);
    expect(rankPatients('   ', patients)).toEqual([]);
  });
});
