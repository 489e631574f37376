/**
 * A template's {{signature}} and {{provider signature}} (spec shell §9) are written when the note
 * is signed, by the person who signs it: inserting the template leaves a line that says so, and
 * signing replaces it with 'Electronically signed by {name}.' and the time of signing.
 */
export const SIGNATURE_PENDING = '[Signature: added when the note is signed]';
export const PROVIDER_SIGNATURE_PENDING = '[Provider signature: added when the note is signed]';

/** The spec's signature text (shell §9: used when the provider or signature image is missing). */
export const signatureFallback = (name: string) => `Electronically signed by ${name}.`;

export interface SignatureFill {
  /** Who signs: the {{signature}} line. */
  signer: string;
  /** The provider the note is for (on behalf of, else the signer): the {{provider signature}} line. */
  provider: string;
  at: Date;
  timeZone?: string | undefined;
}

function signedAt(at: Date, timeZone: string | undefined): string {
  const opts: Intl.DateTimeFormatOptions = { month: '2-digit', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true };
  try {
    return new Intl.DateTimeFormat('en-US', { ...opts, timeZone: timeZone || 'UTC' }).format(at).replace(',', '');
  } catch {
    return new Intl.DateTimeFormat('en-US', { ...opts, timeZone: 'UTC' }).format(at).replace(',', '');
  }
}

const escapeHtml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const signatureLine = (name: string, at: Date, timeZone?: string) => `${signatureFallback(name)} ${signedAt(at, timeZone)}`;

export function hasPendingSignature(value: string | null | undefined): boolean {
  return !!value && (value.includes(SIGNATURE_PENDING) || value.includes(PROVIDER_SIGNATURE_PENDING));
}

/** The text (or editor HTML) with each pending signature line written by its signer. */
export function fillSignatureLines(value: string, fill: SignatureFill, html = false): string {
  const line = (name: string) => (html ? escapeHtml : (v: string) => v)(signatureLine(name, fill.at, fill.timeZone));
  return value.split(SIGNATURE_PENDING).join(line(fill.signer)).split(PROVIDER_SIGNATURE_PENDING).join(line(fill.provider));
}

/** A note's text and formattedText with their pending signature lines written; other data unchanged. */
export function signNoteText<T extends { text?: string | undefined; formattedText?: string | undefined }>(data: T, fill: SignatureFill): T {
  if (!hasPendingSignature(data.text) && !hasPendingSignature(data.formattedText)) return data;
  return {
    ...data,
    ...(typeof data.text === 'string' ? { text: fillSignatureLines(data.text, fill) } : {}),
    ...(typeof data.formattedText === 'string' ? { formattedText: fillSignatureLines(data.formattedText, fill, true) } : {}),
  };
}
