/**
 * An export zip holds bundle.json and each file beside it, the DocumentReference pointing at it by
 * its path in the zip (attachment.url). The import takes one JSON body, so the screen carries the
 * files inside the bundle as base64 attachment data, up to what one request can hold.
 */

/** Raw bytes carried per import: base64 grows them by a third, and an API request holds 10 MB. */
export const FHIR_IMPORT_INLINE_MAX_BYTES = 6 * 1024 * 1024;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * The bundle with each zip file its DocumentReferences point at carried as data, while they fit; the
 * rest keep their link. A call's voicemail or a fax's PDF (a Communication's payload) is carried on
 * the Communication only when no DocumentReference carries the same file: the import finds it by its path.
 */
export function inlineZipFiles(bundle: unknown, files: Record<string, Uint8Array>, maxBytes = FHIR_IMPORT_INLINE_MAX_BYTES): unknown {
  const entries = (bundle as Json | null)?.entry;
  if (!Array.isArray(entries)) return bundle;
  let budget = maxBytes;
  const withData = (a: Json | undefined) => {
    const bytes = a && !a.data && typeof a.url === 'string' ? files[a.url] : undefined;
    if (!bytes || bytes.length > budget) return a;
    budget -= bytes.length;
    return { ...a, data: base64(bytes) };
  };
  const linked = new Set<string>();
  const docsDone = entries.map((e: Json) => {
    const r = e?.resource;
    if (r?.resourceType !== 'DocumentReference' || !Array.isArray(r.content)) return e;
    const content = r.content.map((c: Json) => {
      if (typeof c?.attachment?.url === 'string') linked.add(c.attachment.url);
      return c?.attachment ? { ...c, attachment: withData(c.attachment) } : c;
    });
    return { ...e, resource: { ...r, content } };
  });
  return {
    ...(bundle as Json),
    entry: docsDone.map((e: Json) => {
      const r = e?.resource;
      if (r?.resourceType !== 'Communication' || !Array.isArray(r.payload)) return e;
      const payload = r.payload.map((p: Json) =>
        p?.contentAttachment && !linked.has(p.contentAttachment.url) ? { ...p, contentAttachment: withData(p.contentAttachment) } : p,
      );
      return { ...e, resource: { ...r, payload } };
    }),
  };
}
