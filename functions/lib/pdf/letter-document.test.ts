import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/support/pdf-text.js';
import { createLetterDocument } from './letter-document.js';

// A 400 × 100 px red PNG: wider than the letterhead allows, so it must be scaled to 200 × 50.
const WIDE_PNG = (() => {
  const crc32 = (buf: Buffer) => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(400, 0);
  ihdr.writeUInt32BE(100, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(400 * 3, Buffer.from([200, 30, 30]))]);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: 100 }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
})();

describe('letter documents', () => {
  it('print the letterhead, the fields and a table on Letter paper, breaking long tables across pages', async () => {
    const letter = await createLetterDocument(
      { practiceName: 'Harbor Direct Care', phoneNumber: '(555) 010-2000', base64Logo: WIDE_PNG },
      { margins: 'print', title: 'Prescription' },
    );
    letter.heading('Prescription');
    letter.fields([
      ['Patient', 'Avery Quinn'],
      ['Instructions', 'Take one tablet by mouth twice daily with food ≥ 8 hours apart'],
    ]);
    letter.table(
      [
        { header: 'Test', width: 0.5 },
        { header: 'Value', width: 0.5 },
      ],
      Array.from({ length: 80 }, (_, i) => ({ cells: [`Analyte ${i + 1}`, String(i)], flagged: i === 3 })),
    );
    const bytes = await letter.save();

    const loaded = await PDFDocument.load(bytes);
    expect(loaded.getTitle()).toBe('Prescription');
    expect(loaded.getPageCount()).toBeGreaterThan(1);
    const { width, height } = loaded.getPage(0).getSize();
    expect([width, height]).toEqual([612, 792]);

    const text = pdfText(bytes);
    expect(text).toContain('Harbor Direct Care');
    expect(text).toContain('(555) 010-2000');
    expect(text).toContain('Avery Quinn');
    expect(text.join(' ')).toContain('food >= 8 hours apart');
    expect(text).toContain('Analyte 80');
    // The table's header is drawn again on the page a break starts.
    expect(text.filter((t) => t === 'Test').length).toBe(loaded.getPageCount());
    expect(text).toContain(`Page ${loaded.getPageCount()} of ${loaded.getPageCount()}`);
  });

  it('still prints when the logo is a format the PDF cannot embed', async () => {
    const letter = await createLetterDocument(
      { practiceName: 'Harbor Direct Care', base64Logo: 'data:image/svg+xml;base64,PHN2Zy8+' },
      { margins: 'fax', title: 'Fax' },
    );
    letter.text('Hello');
    const text = pdfText(await letter.save());
    expect(text).toEqual(expect.arrayContaining(['Harbor Direct Care', 'Hello', 'Page 1 of 1']));
  });
});
