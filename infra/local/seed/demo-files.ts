/** Files the demo practice holds, drawn at seed time so nothing binary sits in the repository. */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const body = Buffer.concat([head.subarray(4), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([head.subarray(0, 4), body, crc]);
}

/** An RGB PNG whose pixels `paint(x, y)` gives. */
export function png(width: number, height: number, paint: (x: number, y: number) => [number, number, number]): Uint8Array {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) raw.set(paint(x, y), row + 1 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** A small picture: a sky over a green field with a sun, 320×240. */
export function demoPhoto(): Uint8Array {
  return png(320, 240, (x, y) => {
    if ((x - 250) ** 2 + (y - 60) ** 2 < 900) return [250, 200, 60];
    if (y < 150) return [120 + (y >> 2), 170 + (y >> 3), 235];
    return [60 + ((x * 7 + y * 3) % 20), 140 - ((y - 150) >> 2), 70];
  });
}

/** A panorama (4:1), wide enough for the drive's panorama viewer to offer itself. */
export function demoPanorama(): Uint8Array {
  return png(1600, 400, (x, y) => {
    const ridge = 220 + Math.round(40 * Math.sin(x / 90) + 20 * Math.sin(x / 23));
    if (y < ridge) return [140 + (y >> 3), 190, 240];
    return [70, 110 + ((x >> 4) % 30), 80];
  });
}

export function demoSpreadsheet(): Uint8Array {
  const rows = [
    ['Item', 'Strength', 'On hand', 'Restock at', 'Expires'],
    ['Amoxicillin', '500 mg', '500', '100', '12/2028'],
    ['Ibuprofen', '800 mg', '500', '100', '06/2029'],
    ['Prednisone', '10 mg', '20', '20', '11/2029'],
    ['Cephalexin', '250 mg', '40', '10', '01/2024'],
  ];
  return new TextEncoder().encode(`${rows.map((r) => r.join(',')).join('\r\n')}\r\n`);
}

/** A one-page PDF with a title and lines of text. */
export async function demoPdf(title: string, lines: string[]): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const page = doc.addPage([612, 792]);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(title, { x: 56, y: 720, size: 18, font: bold, color: rgb(0, 0.33, 0.47) });
  lines.forEach((line, i) => page.drawText(line, { x: 56, y: 684 - i * 20, size: 12, font }));
  return doc.save();
}

/** A C-CDA Continuity of Care Document of our own making for James Whitaker (pat-0002). */
export function demoCcda(today: string): string {
  const ts = today.replaceAll('-', '');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ClinicalDocument xmlns="urn:hl7-org:v3">
  <realmCode code="US"/>
  <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
  <templateId root="2.16.840.1.113883.10.20.22.1.1" extension="2015-08-01"/>
  <templateId root="2.16.840.1.113883.10.20.22.1.2" extension="2015-08-01"/>
  <id root="2.16.840.1.113883.19.5.99999.1" extension="tidewell-demo-ccd-0002"/>
  <code code="34133-9" codeSystem="2.16.840.1.113883.6.1" displayName="Summary of episode note"/>
  <title>Continuity of Care Document</title>
  <effectiveTime value="${ts}"/>
  <confidentialityCode code="N" codeSystem="2.16.840.1.113883.5.25"/>
  <languageCode code="en-US"/>
  <recordTarget><patientRole><id extension="pat-0002" root="2.16.840.1.113883.19.5"/>
    <patient><name><given>James</given><family>Whitaker</family></name>
      <administrativeGenderCode code="M" codeSystem="2.16.840.1.113883.5.1"/><birthTime value="19510719"/></patient>
  </patientRole></recordTarget>
  <component><structuredBody>
    <component><section><templateId root="2.16.840.1.113883.10.20.22.2.5.1" extension="2015-08-01"/>
      <code code="11450-4" codeSystem="2.16.840.1.113883.6.1" displayName="Problem list"/><title>Problems</title>
      <text><list><item>Essential hypertension (I10)</item><item>Hyperlipidemia (E78.5)</item></list></text></section></component>
    <component><section><templateId root="2.16.840.1.113883.10.20.22.2.6.1" extension="2015-08-01"/>
      <code code="48765-2" codeSystem="2.16.840.1.113883.6.1" displayName="Allergies"/><title>Allergies</title>
      <text><list><item>Penicillin: hives (moderate)</item></list></text></section></component>
    <component><section><templateId root="2.16.840.1.113883.10.20.22.2.1.1" extension="2014-06-09"/>
      <code code="10160-0" codeSystem="2.16.840.1.113883.6.1" displayName="Medications"/><title>Medications</title>
      <text><list><item>Lisinopril 20 mg daily</item><item>Atorvastatin 40 mg daily</item></list></text></section></component>
  </structuredBody></component>
</ClinicalDocument>
`;
}
