import { commsContext, type CommsContext } from '../import-comms.js';
import { labBundle, type LabBundle } from '../import-labs.js';
import type { Json } from './planned.js';
import { text } from './read.js';

/** What the bundle as a whole says that one resource's plan needs. */
export interface BundleContext {
  /** This practice: its own identifier of a patient is the chart, not an outside identifier. */
  practiceId?: string;
  /** References that name the bundle's patient (its fullUrl or Patient/<id>): the first Patient it holds. */
  patientRefs: Set<string>;
  /** References that name any other patient in the bundle, with that patient's name. */
  otherPatients: Map<string, string>;
  /** The medication list's names and codes (MedicationStatement), lower-cased. */
  listedMedications: Set<string>;
  /** Medication resources by reference, for what names its medication by medicationReference. */
  medications: Map<string, Json>;
  comms: CommsContext;
  /** Lab reports and what each brings in with it. */
  labs: LabBundle;
}

export function bundleContext(entries: { fullUrl?: string; resource: Record<string, unknown> }[] | undefined): BundleContext {
  const patientRefs = new Set<string>();
  const otherPatients = new Map<string, string>();
  const listedMedications = new Set<string>();
  const medications = new Map<string, Json>();
  let first = true;
  for (const e of entries ?? []) {
    const r = e.resource as Json;
    if (r.resourceType === 'Patient') {
      for (const ref of refsTo(e.fullUrl, r)) {
        if (first) patientRefs.add(ref);
        else otherPatients.set(ref, patientName(r));
      }
      first = false;
    }
    if (r.resourceType === 'Medication') for (const ref of refsTo(e.fullUrl, r)) medications.set(ref, r);
  }
  for (const e of entries ?? []) {
    const r = e.resource as Json;
    if (r.resourceType === 'MedicationStatement') for (const k of medicationKeys(medicationOf(r, medications))) listedMedications.add(k);
  }
  return { patientRefs, otherPatients, listedMedications, medications, comms: commsContext(entries), labs: labBundle(entries) };
}

/** The references that may name a bundle entry: its fullUrl, and Type/id (also from a urn:uuid fullUrl, as transaction bundles resolve them). */
export function refsTo(fullUrl: string | undefined, r: Json): string[] {
  const uuid = fullUrl?.startsWith('urn:uuid:') ? fullUrl.slice('urn:uuid:'.length) : undefined;
  return [fullUrl, typeof r.id === 'string' ? `${r.resourceType}/${r.id}` : undefined, uuid ? `${r.resourceType}/${uuid}` : undefined].filter(
    (x): x is string => Boolean(x),
  );
}

export function patientName(r: Json): string {
  // Another system's name may not be the list of HumanNames FHIR asks for: it names nobody then.
  const names: Json[] = Array.isArray(r.name) ? r.name.filter((x: unknown) => x && typeof x === 'object') : [];
  const n = names.find((x) => x.use === 'official') ?? names[0];
  const given: unknown[] = Array.isArray(n?.given) ? n.given : [];
  return [...given, n?.family].filter((part) => typeof part === 'string' && part).join(' ') || (typeof n?.text === 'string' ? n.text : '');
}

/** What a prescription or medication list entry names, coded inline or through a Medication in the bundle. */
export function medicationOf(r: Json, medications: Map<string, Json>): Json | undefined {
  if (r.medicationCodeableConcept) return r.medicationCodeableConcept;
  const ref = r.medicationReference as Json | undefined;
  const code = typeof ref?.reference === 'string' ? medications.get(ref.reference)?.code : undefined;
  return code ?? (ref?.display ? { text: ref.display } : undefined);
}

export function medicationKeys(cc: Json | undefined): string[] {
  const name = text(cc);
  return [
    ...(name ? [`name:${name.trim().toLowerCase()}`] : []),
    ...((cc?.coding as Json[] | undefined) ?? []).filter((c) => c.code).map((c) => `${c.system}|${c.code}`),
  ];
}

/** Who a reference names: its display, else the Practitioner, Organization or person it points to in the bundle. */
export function nameOfRef(ref: Json | undefined, bundle: BundleContext, depth = 0): string | undefined {
  if (!ref || depth > 2) return undefined;
  if (typeof ref.display === 'string' && ref.display.trim()) return ref.display.trim();
  const target = typeof ref.reference === 'string' ? bundle.labs.byRef.get(ref.reference) : undefined;
  if (!target) return undefined;
  if (target.resourceType === 'Organization') return typeof target.name === 'string' ? target.name : undefined;
  if (target.resourceType === 'PractitionerRole') return nameOfRef(target.practitioner, bundle, depth + 1);
  const n = target.name?.find((x: Json) => x.use === 'official') ?? target.name?.[0];
  return n?.text || [...(n?.prefix ?? []), ...(n?.given ?? []), n?.family].filter(Boolean).join(' ') || undefined;
}
