import { describe, expect, it } from 'vitest';
import { fillSignatureLines, hasPendingSignature, PROVIDER_SIGNATURE_PENDING, SIGNATURE_PENDING, signNoteText } from './signature-line.js';

const at = new Date('2026-06-01T15:04:00Z');

describe('signature lines', () => {
  it("writes the signer's name and the time of signing in the signer's time zone, in the spec's words", () => {
    expect(
      fillSignatureLines(`Plan: rest\n${SIGNATURE_PENDING}`, { signer: 'Daniel Okafor', provider: 'Daniel Okafor', at, timeZone: 'America/Chicago' }),
    ).toBe('Plan: rest\nElectronically signed by Daniel Okafor. 06/01/2026 10:04 AM');
    // An unknown zone falls back to UTC rather than failing the signature.
    expect(fillSignatureLines(SIGNATURE_PENDING, { signer: 'A', provider: 'A', at, timeZone: 'Mars/Olympus' })).toBe(
      'Electronically signed by A. 06/01/2026 3:04 PM',
    );
  });
  it('names the prescriber for the provider line and escapes names in editor HTML', () => {
    const data = {
      text: `${SIGNATURE_PENDING}\n${PROVIDER_SIGNATURE_PENDING}`,
      formattedText: `<p>${SIGNATURE_PENDING}</p><p>${PROVIDER_SIGNATURE_PENDING}</p>`,
      other: 1,
    };
    const signed = signNoteText(data, { signer: 'Jordan <Ellis>', provider: 'Priya Raman', at });
    expect(signed.text).toBe('Electronically signed by Jordan <Ellis>. 06/01/2026 3:04 PM\nElectronically signed by Priya Raman. 06/01/2026 3:04 PM');
    expect(signed.formattedText).toBe(
      '<p>Electronically signed by Jordan &lt;Ellis&gt;. 06/01/2026 3:04 PM</p><p>Electronically signed by Priya Raman. 06/01/2026 3:04 PM</p>',
    );
    expect(signed.other).toBe(1);
    expect(hasPendingSignature(signed.text)).toBe(false);
  });
  it('leaves a note without a pending line as it is', () => {
    const data = { text: 'Electronically signed by someone earlier.' };
    expect(signNoteText(data, { signer: 'A', provider: 'A', at })).toBe(data);
  });
});
