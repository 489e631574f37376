/**
 * A practice export's resources grouped by patient, as each patient's bundle goes to
 * POST /v1/practices/fhir-imports/patients; and what else the export names (its practitioners'
 * emails, its appointments' types and booking locations). Shared by the CLI and the Data import screen.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function referencesIn(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) referencesIn(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'reference' && typeof v === 'string') into.push(v);
      else referencesIn(v, into);
    }
  }
  return into;
}

export const refOf = (r: Json) => `${r.resourceType}/${r.id}`;
/** A reference as Type/id, whatever base it is written against (absolute urls of another server too). */
export const relative = (ref: string) => /([A-Za-z]+\/[^/]+)$/.exec(ref.split('/_history/')[0]!)?.[1] ?? ref;

export interface PatientGroup {
  patient: Json;
  entry: { fullUrl: string; resource: Json }[];
}

/**
 * One group per Patient: the resources naming it (subject, patient, participant, sender, …) and,
 * once each, the resources of no patient those name (Practitioner, Location, Medication, …).
 * Resources naming no patient of the export are returned apart, to be listed.
 */
export function groupByPatient(resources: Json[]): { groups: PatientGroup[]; unassigned: Json[] } {
  const byRef = new Map(resources.filter((r) => r.id !== undefined).map((r) => [refOf(r), r]));
  const groups = new Map<string, PatientGroup>();
  for (const r of resources) if (r.resourceType === 'Patient') groups.set(refOf(r), { patient: r, entry: [{ fullUrl: refOf(r), resource: r }] });
  const unassigned: Json[] = [];
  const shared = new Set<Json>();
  const owned = new Map<Json, PatientGroup>();
  for (const r of resources) {
    if (r.resourceType === 'Patient') continue;
    const group = referencesIn(r)
      .map((ref) => groups.get(relative(ref)))
      .find(Boolean);
    if (group) owned.set(r, group);
    else shared.add(r);
  }
  for (const [r, group] of owned) group.entry.push({ fullUrl: refOf(r), resource: r });
  for (const group of groups.values()) {
    const inGroup = new Set(group.entry.map((e) => e.fullUrl));
    // What the patient's resources name, and what those name in turn (a PractitionerRole's Practitioner).
    for (let i = 0; i < group.entry.length; i++) {
      for (const ref of referencesIn(group.entry[i]!.resource)) {
        const target = byRef.get(relative(ref));
        if (target && shared.has(target) && !inGroup.has(refOf(target))) {
          inGroup.add(refOf(target));
          group.entry.push({ fullUrl: refOf(target), resource: target });
        }
      }
    }
  }
  const named = new Set([...groups.values()].flatMap((g) => g.entry.map((e) => e.resource)));
  for (const r of shared)
    if (!named.has(r) && !['Practitioner', 'Location', 'Organization', 'Medication', 'PractitionerRole'].includes(r.resourceType)) unassigned.push(r);
  return { groups: [...groups.values()], unassigned };
}

/** Where an attachment's url points inside the export's folder: a Tidewell download url's files/… path, or a relative path. */
export function localFilePath(url: string): string | undefined {
  const marker = /\/fhir-exports\/[^/]+\/files\/(files\/.+)$/.exec(url);
  const path = marker ? marker[1]! : /^[a-z][a-z0-9+.-]*:/i.test(url) ? undefined : url;
  if (!path) return undefined;
  const segments = path.split('/').map((s) => decodeURIComponent(s));
  return segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\')) ? undefined : segments.join('/');
}

/** What the export's appointments book: their types (by name, with the length first seen) and the booking locations they name. */
export function calendarNamed(resources: Json[]): { types: Map<string, number>; locations: Map<string, string> } {
  const byRef = new Map(resources.filter((r) => r.resourceType === 'Location' && r.id !== undefined).map((r) => [refOf(r), r]));
  const types = new Map<string, number>();
  const locations = new Map<string, string>();
  for (const a of resources.filter((r) => r.resourceType === 'Appointment')) {
    const type = String(a.appointmentType?.text ?? '').trim();
    const minutes = Number(a.minutesDuration) || Math.round((Date.parse(a.end) - Date.parse(a.start)) / 60_000);
    if (type && ![...types.keys()].some((t) => t.toLowerCase() === type.toLowerCase()))
      types.set(type, Number.isInteger(minutes) && minutes > 0 ? minutes : 30);
    for (const p of (a.participant as Json[] | undefined) ?? []) {
      const ref = p.actor?.reference;
      const location = typeof ref === 'string' && relative(ref).startsWith('Location/') ? byRef.get(relative(ref)) : undefined;
      const name = String(location?.name ?? (typeof ref === 'string' && relative(ref).startsWith('Location/') ? (p.actor.display ?? '') : '')).trim();
      if (name && !locations.has(name))
        locations.set(
          name,
          String(
            location?.address?.text ??
              [...(location?.address?.line ?? []), location?.address?.city, location?.address?.state, location?.address?.postalCode].filter(Boolean).join(', '),
          ),
        );
    }
  }
  return { types, locations };
}

export const emailOf = (r: Json) =>
  ((r.telecom as Json[] | undefined) ?? []).find((t) => t.system === 'email' && typeof t.value === 'string')?.value?.toLowerCase() as string | undefined;
const nameOf = (r: Json) => {
  const n = (r.name as Json[] | undefined)?.[0];
  return String(n?.text || [...(n?.given ?? []), n?.family].filter(Boolean).join(' ') || r.id);
};
export const label = (p: Json) => `${nameOf(p)} (Patient/${String(p.id)})`;
