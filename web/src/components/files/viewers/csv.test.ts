import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';

describe('parseCsv', () => {
  it('reads quoted commas, doubled quotes, line breaks in quotes and CRLF rows', () => {
    expect(parseCsv('Test,Value\r\n"Glucose, fasting",95\n"He said ""hi""","a\nb"\n')).toEqual([
      ['Test', 'Value'],
      ['Glucose, fasting', '95'],
      ['He said "hi"', 'a\nb'],
    ]);
    expect(parseCsv('a,,c')).toEqual([['a', '', 'c']]);
    expect(parseCsv('')).toEqual([]);
  });
});
