import { inflateSync } from 'node:zlib';

/**
 * The text a PDF written by pdf-lib draws, in drawing order, one string per text operator.
 * pdf-lib writes the standard fonts' text as hex strings in flate-compressed content streams;
 * this reads exactly that, so tests can assert what a printed page says without a PDF renderer.
 */
export function pdfText(bytes: Uint8Array): string[] {
  const raw = Buffer.from(bytes);
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const start = raw.indexOf('stream', from, 'latin1');
    if (start < 0) break;
    const dataStart = raw[start + 6] === 0x0d ? start + 8 : start + 7;
    const end = raw.indexOf('endstream', dataStart, 'latin1');
    if (end < 0) break;
    from = end + 9;
    const dict = raw.subarray(Math.max(0, start - 300), start).toString('latin1');
    let body = raw.subarray(dataStart, end);
    if (/\/FlateDecode/.test(dict.slice(dict.lastIndexOf('<<')))) {
      try {
        body = inflateSync(body);
      } catch {
        continue;
      }
    }
    const content = body.toString('latin1');
    for (const m of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) out.push(Buffer.from(m[1]!, 'hex').toString('latin1'));
    for (const m of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) out.push(m[1]!.replace(/\\(.)/g, '$1'));
  }
  return out;
}
