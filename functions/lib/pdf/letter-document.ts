import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage, type PDFImage } from 'pdf-lib';

/**
 * A Letter-size document on the practice's letterhead, laid out top to bottom: headings, text,
 * label/value fields and tables, wrapped to the page width and broken across pages.
 * Prescriptions, lab reports and faxes share it so every PDF the practice sends looks the same.
 * pdf-lib is large (about 500 KB minified): import this module only from a lazy route.
 */

export interface Letterhead {
  practiceName: string;
  phoneNumber?: string | null;
  /** A data URL; PNG and JPEG are drawn, other formats leave the name alone on the letterhead. */
  base64Logo?: string | null;
}

/** Spec shell §9: print margins 1 in sides, 1 in top, 1.3 in bottom; a fax page has zero margin. */
export type LetterMargins = 'print' | 'fax';

const INCH = 72;
const LETTER: [number, number] = [8.5 * INCH, 11 * INCH];
/** Spec: letterhead logo max height 72 px, max width 200 px. */
export const LOGO_MAX_HEIGHT = 72;
export const LOGO_MAX_WIDTH = 200;
/** A fax has no page margin, but text on the paper's edge is cut by the machine: keep a small inset. */
const FAX_INSET = 0.4 * INCH;
const MARGINS: Record<LetterMargins, { top: number; side: number; bottom: number }> = {
  print: { top: INCH, side: INCH, bottom: 1.3 * INCH },
  fax: { top: FAX_INSET, side: FAX_INSET, bottom: FAX_INSET },
};

const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.4, 0.45);
const RULE = rgb(0.75, 0.77, 0.8);
const FLAG = rgb(0.7, 0.05, 0.05);

export interface TextStyle {
  bold?: boolean;
  size?: number;
  muted?: boolean;
}
export interface TableColumn {
  header: string;
  /** share of the text width, summing to 1 */ width: number;
}
export interface TableRow {
  cells: string[];
  /** drawn bold and red, e.g. an abnormal result */ flagged?: boolean;
}

export interface LetterDocument {
  heading(text: string): void;
  text(text: string, style?: TextStyle): void;
  fields(pairs: ReadonlyArray<readonly [label: string, value: string]>): void;
  table(columns: TableColumn[], rows: TableRow[]): void;
  rule(): void;
  space(points: number): void;
  save(): Promise<Uint8Array>;
}

export async function createLetterDocument(letterhead: Letterhead, options: { margins: LetterMargins; title: string }): Promise<LetterDocument> {
  const doc = await PDFDocument.create();
  doc.setTitle(options.title);
  doc.setProducer('Tidewell');
  doc.setCreator('Tidewell');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const margin = MARGINS[options.margins];
  const width = LETTER[0] - 2 * margin.side;
  const logo = await embedLogo(doc, letterhead.base64Logo);

  let page: PDFPage = doc.addPage(LETTER);
  let y = LETTER[1] - margin.top;

  const newPage = () => {
    page = doc.addPage(LETTER);
    y = LETTER[1] - margin.top;
  };
  const ensure = (height: number) => {
    if (y - height < margin.bottom) newPage();
  };
  const line = (text: string, x: number, font: PDFFont, size: number, color = INK) => {
    page.drawText(encodable(font, text), { x, y: y - size, size, font, color });
  };

  // Letterhead: logo left, practice name and phone beside it, a rule under both.
  {
    let textX = margin.side;
    let headHeight = 28;
    if (logo) {
      const scale = Math.min(LOGO_MAX_WIDTH / logo.width, LOGO_MAX_HEIGHT / logo.height, 1);
      const w = logo.width * scale;
      const h = logo.height * scale;
      page.drawImage(logo, { x: margin.side, y: y - h, width: w, height: h });
      textX += w + 14;
      headHeight = Math.max(headHeight, h);
    }
    line(letterhead.practiceName, textX, bold, 16);
    if (letterhead.phoneNumber) {
      const saved = y;
      y -= 20;
      line(letterhead.phoneNumber, textX, regular, 10, MUTED);
      y = saved;
    }
    y -= headHeight + 8;
    page.drawLine({ start: { x: margin.side, y }, end: { x: LETTER[0] - margin.side, y }, thickness: 1, color: RULE });
    y -= 16;
  }

  const wrap = (text: string, font: PDFFont, size: number, maxWidth: number): string[] => {
    const out: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let current = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const candidate = current ? `${current} ${word}` : word;
        if (font.widthOfTextAtSize(encodable(font, candidate), size) <= maxWidth) {
          current = candidate;
          continue;
        }
        if (current) out.push(current);
        // A word wider than the column (a long code or URL) is cut where it overflows.
        let rest = word;
        while (font.widthOfTextAtSize(encodable(font, rest), size) > maxWidth && rest.length > 1) {
          let cut = rest.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(encodable(font, rest.slice(0, cut)), size) > maxWidth) cut--;
          out.push(rest.slice(0, cut));
          rest = rest.slice(cut);
        }
        current = rest;
      }
      out.push(current);
    }
    return out;
  };

  const api: LetterDocument = {
    heading(text) {
      ensure(30);
      y -= 6;
      line(text, margin.side, bold, 13);
      y -= 20;
    },
    text(text, style = {}) {
      const size = style.size ?? 10.5;
      const font = style.bold ? bold : regular;
      for (const l of wrap(text, font, size, width)) {
        ensure(size + 4);
        line(l, margin.side, font, size, style.muted ? MUTED : INK);
        y -= size + 4;
      }
    },
    fields(pairs) {
      const labelWidth = Math.min(170, width * 0.35);
      for (const [label, value] of pairs) {
        const lines = wrap(value || '—', regular, 10.5, width - labelWidth);
        ensure(15);
        line(label, margin.side, bold, 10.5, MUTED);
        for (const l of lines) {
          ensure(15);
          line(l, margin.side + labelWidth, regular, 10.5);
          y -= 15;
        }
      }
      y -= 4;
    },
    table(columns, rows) {
      const size = 9.5;
      const xs = columns.reduce<number[]>((acc, c, i) => [...acc, (acc[i] ?? margin.side) + c.width * width], [margin.side]);
      const drawHeader = () => {
        ensure(size + 10);
        columns.forEach((c, i) => line(c.header, xs[i]!, bold, size, MUTED));
        y -= size + 4;
        page.drawLine({ start: { x: margin.side, y }, end: { x: LETTER[0] - margin.side, y }, thickness: 0.5, color: RULE });
        y -= 4;
      };
      drawHeader();
      for (const row of rows) {
        const font = row.flagged ? bold : regular;
        const cellLines = columns.map((c, i) => wrap(row.cells[i] ?? '', font, size, c.width * width - 6));
        const height = Math.max(...cellLines.map((l) => l.length)) * (size + 3) + 3;
        if (y - height < margin.bottom) {
          newPage();
          drawHeader();
        }
        const top = y;
        cellLines.forEach((lines, i) => {
          y = top;
          for (const l of lines) {
            line(l, xs[i]!, font, size, row.flagged ? FLAG : INK);
            y -= size + 3;
          }
        });
        y = top - height;
      }
      y -= 6;
    },
    rule() {
      ensure(10);
      page.drawLine({ start: { x: margin.side, y: y - 4 }, end: { x: LETTER[0] - margin.side, y: y - 4 }, thickness: 0.5, color: RULE });
      y -= 12;
    },
    space(points) {
      y -= points;
    },
    async save() {
      const pages = doc.getPages();
      pages.forEach((p, i) => {
        const label = `Page ${i + 1} of ${pages.length}`;
        const size = 8;
        p.drawText(label, {
          x: LETTER[0] - margin.side - regular.widthOfTextAtSize(label, size),
          y: Math.max(margin.bottom / 2, 12),
          size,
          font: regular,
          color: MUTED,
        });
      });
      return doc.save();
    },
  };
  return api;
}

async function embedLogo(doc: PDFDocument, dataUrl: string | null | undefined): Promise<PDFImage | null> {
  const match = /^data:image\/(png|jpeg);base64,(.+)$/.exec(dataUrl ?? '');
  if (!match) return null;
  const bytes = Buffer.from(match[2]!, 'base64');
  try {
    return match[1] === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
  } catch {
    // A logo the PDF engine cannot read must not stop a prescription or fax from printing.
    return null;
  }
}

const encodableCache = new WeakMap<PDFFont, Map<string, boolean>>();
/** The standard fonts speak WinAnsi only: anything else (≥, emoji, CJK) is swapped so drawing never throws. */
function encodable(font: PDFFont, text: string): string {
  let cache = encodableCache.get(font);
  if (!cache) encodableCache.set(font, (cache = new Map()));
  let out = '';
  for (const ch of text
    .replace(/≥/g, '>=')
    .replace(/≤/g, '<=')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')) {
    let ok = cache.get(ch);
    if (ok === undefined) {
      try {
        font.encodeText(ch);
        ok = true;
      } catch {
        ok = false;
      }
      cache.set(ch, ok);
    }
    out += ok ? ch : '?';
  }
  return out;
}
