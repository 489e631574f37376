import { describe, expect, it } from 'vitest';
import { FILE_NAME_MAX_BYTES, safeFileName, uploadError } from './files.js';

describe('uploads', () => {
  it('checks extension and size', () => {
    expect(uploadError('scan.PDF', 1000)).toBeNull();
    expect(uploadError('run.exe')).toBe('This file is not a supported file format');
    expect(uploadError('page.html')).toBe('This file is not a supported file format');
    expect(uploadError('thing.qqq')).toBe('This file is not a supported file format');
    expect(uploadError('big.pdf', 250_000_001)).toBe('This file is too large');
  });
});

describe('file names every store keeps', () => {
  const bytes = (s: string) => new TextEncoder().encode(s).length;
  it('keeps a short name as it is, without path separators or control characters', () => {
    expect(safeFileName('Lab report.pdf')).toBe('Lab report.pdf');
    expect(safeFileName('a/b\\c\n.pdf')).toBe('a_b_c_.pdf');
    expect(safeFileName('   ')).toBe('file');
  });
  it('shortens a long name before its extension, counting bytes, so the file keeps its type', () => {
    const long = safeFileName(`${'Discharge summary '.repeat(30)}.pdf`);
    expect(bytes(long)).toBeLessThanOrEqual(FILE_NAME_MAX_BYTES);
    expect(long.endsWith('.pdf')).toBe(true);
    const wide = safeFileName(`${'é'.repeat(200)}.png`);
    expect(bytes(wide)).toBeLessThanOrEqual(FILE_NAME_MAX_BYTES);
    expect(wide).toMatch(/^é+\.png$/);
  });
});
