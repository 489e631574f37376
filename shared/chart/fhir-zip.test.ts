import { describe, expect, it } from 'vitest';
import { inlineZipFiles } from './fhir-zip.js';

const doc = (url: string) => ({
  resource: { resourceType: 'DocumentReference', content: [{ attachment: { contentType: 'application/pdf', url, title: url } }] },
});
const bytes = (s: string) => new TextEncoder().encode(s);
const data = (b: unknown, i: number) =>
  (b as { entry: { resource: { content: { attachment: { data?: string; url: string } }[] } }[] }).entry[i].resource.content[0].attachment;

describe('inlineZipFiles', () => {
  it('carries each file the bundle points at as base64 data, keeping its link', () => {
    const out = inlineZipFiles(
      { resourceType: 'Bundle', entry: [doc('files/0-a.pdf'), { resource: { resourceType: 'Condition' } }] },
      { 'files/0-a.pdf': bytes('%PDF-1.4 hi') },
    );
    expect(data(out, 0)).toMatchObject({ url: 'files/0-a.pdf', data: Buffer.from('%PDF-1.4 hi').toString('base64') });
    expect((out as { entry: unknown[] }).entry[1]).toEqual({ resource: { resourceType: 'Condition' } });
  });

  it('leaves a link alone when the zip lacks the file or the request could not hold it', () => {
    const out = inlineZipFiles(
      { resourceType: 'Bundle', entry: [doc('files/0-a.pdf'), doc('files/1-b.pdf'), doc('files/2-gone.pdf')] },
      { 'files/0-a.pdf': bytes('12345678'), 'files/1-b.pdf': bytes('1234') },
      10,
    );
    expect(data(out, 0).data).toBe(Buffer.from('12345678').toString('base64'));
    expect(data(out, 1).data).toBeUndefined();
    expect(data(out, 2).data).toBeUndefined();
  });

  it('a large file survives the round trip byte for byte', () => {
    const big = new Uint8Array(100_000).map((_, i) => (i * 7) % 256);
    const out = inlineZipFiles({ resourceType: 'Bundle', entry: [doc('f')] }, { f: big });
    expect(new Uint8Array(Buffer.from(data(out, 0).data!, 'base64'))).toEqual(big);
  });

  it("carries a call's voicemail on its Communication only when no DocumentReference already carries that file", () => {
    const call = (url: string) => ({
      resource: { resourceType: 'Communication', payload: [{ contentString: 'Voicemail' }, { contentAttachment: { contentType: 'audio/wav', url } }] },
    });
    const out = inlineZipFiles(
      { resourceType: 'Bundle', entry: [doc('files/1-vm.wav'), call('files/1-vm.wav'), call('files/2-vm.wav')] },
      { 'files/1-vm.wav': bytes('RIFF1'), 'files/2-vm.wav': bytes('RIFF2') },
    ) as { entry: { resource: { payload: { contentAttachment?: { data?: string } }[] } }[] };
    expect(data(out, 0).data).toBe(Buffer.from('RIFF1').toString('base64'));
    expect(out.entry[1]!.resource.payload[1]!.contentAttachment!.data).toBeUndefined();
    expect(out.entry[2]!.resource.payload[1]!.contentAttachment!.data).toBe(Buffer.from('RIFF2').toString('base64'));
    expect(out.entry[2]!.resource.payload[0]).toEqual({ contentString: 'Voicemail' });
  });
});
