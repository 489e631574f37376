import { describe, expect, it } from 'vitest';
import { uploadError } from './files.js';

describe('uploads', () => {
  it('checks extension and size', () => {
    expect(uploadError('scan.PDF', 1000)).toBeNull();
    expect(uploadError('run.exe')).toBe('This file is not a supported file format');
    expect(uploadError('page.html')).toBe('This file is not a supported file format');
    expect(uploadError('thing.qqq')).toBe('This file is not a supported file format');
    expect(uploadError('big.pdf', 250_000_001)).toBe('This file is too large');
  });
});
