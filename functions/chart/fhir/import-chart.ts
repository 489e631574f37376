import { createHash, randomUUID } from 'node:crypto';
import * as z from '../../../shared/zod.js';
import { ADMINISTRATION_ROUTES, ALLERGY_SEVERITIES, FAMILY_RELATIONS } from '../../../shared/chart/constants.js';
import type { FhirImportItem, FhirImportPreview, FhirImportResult } from '../../../shared/chart/fhir.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import { impossibleVitals, leftOutReason } from '../../../shared/notes/vitals-ranges.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import { NotFoundError } from '../../lib/errors.js';
import { log } from '../../lib/log.js';
import { parseOrThrow } from '../../lib/http/zod-errors.js';
import { claimImportMarker, importedKeys } from '../../data/fhir-import/import-markers.js';
import { insertNote } from '../../data/notes/note-repository.js';
import { getPatient, setPatientDemographics } from '../../data/patients/patient-repository.js';
import type { PatientDemographics } from '../../../shared/patients/patient-record.js';
import { demographicsOf, mergeDemographics } from './demographics.js';
import { createSectionItem, PATIENT_NOT_FOUND, type ChartSectionName } from '../../data/chart/chart-repository.js';
import { buildStored, type SectionSpec } from '../../core/chart/section-crud.js';
import { ALLERGIES, DIAGNOSES, FAMILY_HISTORY, GENERAL, MEDICATIONS, SURGERIES, VACCINES } from '../../core/chart/sections.js';
import { SOCIAL_HISTORY } from '../social-history.js';
import { fileExtension, safeFileName, uploadError } from '../../../shared/notes/files.js';
import { storedKey } from '../../lib/files/presign.js';
import { ALLERGY_EXTENSIONS } from './allergies.js';
import { identifiersOf, SYSTEMS } from './fhir-core.js';
import { store } from '../../core/fhir-bulk/files-store.js';
import { broughtInElsewhere, commsContext, planCall, planDispense, planFax, planFormResponse, type CommsContext, type ImportedFile } from './import-comms.js';
import { CONVERSATION_TEXT, TEXTING_LINE } from './communications.js';
import { labBundle, mergeLabData, planLabDocument, planLabObservation, planLabOrder, planLabReport, type LabBundle, type LabPlan } from './import-labs.js';
import { VITAL_CODES } from './vitals.js';
import { conceptName, sigOf, vitalValue } from './import-values.js';
import { importAppointments, planAppointments, type AppointmentItem, type PlannedAppointment } from './import-appointments.js';

/*
 * A FHIR bundle into a chart. Every resource brought in leaves a marker under the patient
 * (FHIRIMPORT#<patientId>#<key>, the key from the resource's identifier, else its content), written
 * before what it makes and only if absent: the same bundle imported twice adds nothing.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const MAX_IMPORT_ENTRIES = 5_000;
export const FhirImportBody = z.object({
  bundle: z.object({
    resourceType: z.literal('Bundle', { error: 'The file is not a FHIR Bundle' }),
    entry: z.optional(z.array(z.object({ fullUrl: z.optional(z.string()), resource: z.record(z.string(), z.unknown()), search: z.optional(z.object({ mode: z.optional(z.string().check(z.maxLength(20))) })) })).check(z.maxLength(MAX_IMPORT_ENTRIES, `A bundle may hold at most ${MAX_IMPORT_ENTRIES} resources`))),
  }, { error: 'The file is not a FHIR Bundle' }),
});
export type FhirImportBody = z.infer<typeof FhirImportBody>;

/** The resource's own identity when it has one, else its content: what "the same resource" means. */
export function importKey(r: Json): string {
  const id = identifiersOf(r).find((i) => typeof i.value === 'string');
  const basis = id ? `${r.resourceType}|${id.system ?? ''}|${id.value}` : `${r.resourceType}|content|${JSON.stringify({ ...r, id: undefined, meta: undefined })}`;
  return createHash('sha256').update(basis).digest('hex').slice(0, 40);
}

const codeIn = (cc: Json | undefined, system: string): string | undefined => cc?.coding?.find((c: Json) => c.system === system)?.code;
const text = (cc: Json | undefined) => conceptName(cc);
const day = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : undefined);
/** An ISO instant in UTC, as Tidewell stores times, from a FHIR dateTime in any zone. */
const instant = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)) ? new Date(Date.parse(v)).toISOString() : undefined);
const month = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}/.test(v) ? v.slice(0, 7) : undefined);
const noteOf = (r: Json) => (r.note as Json[] | undefined)?.map((n) => n.text).filter(Boolean).join('\n') || undefined;
const active = (r: Json) => !['inactive', 'resolved', 'remission'].includes(codeIn(r.clinicalStatus, r.resourceType === 'Condition' ? SYSTEMS.conditionClinical : SYSTEMS.allergyClinical) ?? 'active');
const categories = (r: Json) => ((r.category as Json[] | undefined) ?? []).flatMap((c) => (c.coding ?? []).map((x: Json) => x.code));
/** The outside codes a chart item keeps as sent (SNOMED CT, RxNorm, LOINC); ICD-10-CM, NDC and CVX have fields of their own. */
const KEPT_CODE_SYSTEMS = new Set<string>([SYSTEMS.snomed, SYSTEMS.rxnorm, SYSTEMS.loinc]);
export function outsideCodings(cc: Json | undefined): Json[] | undefined {
  const seen = new Set<string>();
  const list = ((cc?.coding as Json[] | undefined) ?? [])
    .filter((c) => KEPT_CODE_SYSTEMS.has(c?.system) && typeof c.code === 'string' && c.code.trim() && c.code.length <= 64)
    .filter((c) => !seen.has(`${c.system}|${c.code}`) && Boolean(seen.add(`${c.system}|${c.code}`)))
    .slice(0, 20)
    .map((c) => ({ system: c.system, code: c.code.trim(), ...(typeof c.display === 'string' && c.display.trim() ? { display: c.display.trim().slice(0, 500) } : {}) }));
  return list.length ? list : undefined;
}
const ROUTE_FROM_V2: Record<string, string> = Object.fromEntries(ADMINISTRATION_ROUTES.map((r) => [r === 'NAS' ? 'NS' : r, r]));

/** One bundle resource as Tidewell will keep it. */
export type Planned =
  | { kind: 'section'; section: ChartSectionName; spec: SectionSpec<any>; input: Json } // eslint-disable-line @typescript-eslint/no-explicit-any
  | { kind: 'social'; question: string; answer: string; at?: string; startDate?: string; endDate?: string; notes?: string }
  | { kind: 'vital'; at: string; values: Record<string, number>; author?: string; authorUser?: ImportedAuthor }
  | { kind: 'file'; at: string; name: string; contentType: string; bytes: Buffer; related?: string; author?: string; authorUser?: ImportedAuthor }
  /** author: who wrote it at the source, when that is not a user here; authorUser: the user here it was matched to (a practice import matches by email). */
  | { kind: 'note'; noteType: Note['noteType']; status: Note['status']; at: string; text: string; formattedText?: string; subject?: string; data?: Record<string, unknown>; files?: ImportedFile[]; signed?: boolean; author?: string; authorUser?: ImportedAuthor }
  /** What the source's Patient says of the patient: merged into this chart's patient. */
  | { kind: 'demographics'; demographics: PatientDemographics }
  | PlannedAppointment
  | LabPlan;

export interface ImportedAuthor {
  userId: string;
  name: string;
  email: string;
}

const NOTE_TYPES_KEPT = new Set(['NOTE', 'DOCUMENT', 'PHONE_CALL', 'EMAIL', 'FAX', 'FORM', 'PARTNER', 'ECONSULT_THEA']);
/** Notes the export also writes as other resources: brought in through those, not twice. */
const NOTE_TYPES_ELSEWHERE = new Set(['VITALS', 'LAB', 'RX', 'RX_DOSESPOT', 'RX_VERADIGM', 'SALES', 'SMS', 'SMS_LOG']);

/** Tidewell's export opens a note's plain text with its subject, which the note keeps apart: taken off, or every move would add it again. */
export const withoutSubjectLine = (text: string, subject: unknown) =>
  typeof subject === 'string' && subject && text.startsWith(`Subject: ${subject}`) ? text.slice(`Subject: ${subject}`.length).replace(/^\n{1,2}/, '') : text;
const decode = (a: Json | undefined) => (a?.data ? Buffer.from(String(a.data), 'base64').toString('utf8') : undefined);

/**
 * A file carried inside the bundle (an attachment's base64 `data`) becomes a signed document note
 * holding it, under the same rules as an upload; one that only links to its binary is left out.
 */
function planFile(r: Json, title: string, author?: string): { planned?: Planned; summary: string; reason?: string } {
  const summary = `File: ${title}`;
  const attachment = (r.content as Json[] | undefined)?.map((c) => c.attachment as Json | undefined).find((a) => a?.data || a?.url);
  if (!attachment?.data) return { summary, reason: 'The file itself is not in the bundle' };
  const name = fileNameOf(String(attachment.title ?? r.description ?? 'file'), attachment.contentType);
  const bytes = Buffer.from(String(attachment.data), 'base64');
  const problem = uploadError(name, bytes.length);
  if (problem) return { summary, reason: problem };
  const at = r.context?.period?.start ?? r.date ?? attachment.creation ?? new Date().toISOString();
  const related = r.context?.related?.find((x: Json) => typeof x?.reference === 'string')?.reference as string | undefined;
  return { summary: `File: ${name}`, planned: { kind: 'file', at, name, contentType: String(attachment.contentType ?? 'application/octet-stream'), bytes, related, author } };
}

const EXTENSION_OF: Record<string, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg', 'image/tiff': 'tiff', 'text/plain': 'txt', 'application/xml': 'xml', 'text/xml': 'xml', 'text/rtf': 'rtf' };

/** A stored file's name: the title as other systems write it (any length), shortened as every store can keep it, with its type's extension. */
export function fileNameOf(title: string, contentType: unknown): string {
  const ext = EXTENSION_OF[String(contentType ?? '').split(';')[0]!.trim().toLowerCase()];
  const named = ext && !fileExtension(title) ? `${title.trim()}.${ext}` : title;
  return safeFileName(named);
}

/** What the bundle as a whole says that one resource's plan needs. */
interface BundleContext {
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

function bundleContext(entries: FhirImportBody['bundle']['entry']): BundleContext {
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
function refsTo(fullUrl: string | undefined, r: Json): string[] {
  const uuid = fullUrl?.startsWith('urn:uuid:') ? fullUrl.slice('urn:uuid:'.length) : undefined;
  return [fullUrl, typeof r.id === 'string' ? `${r.resourceType}/${r.id}` : undefined, uuid ? `${r.resourceType}/${uuid}` : undefined].filter((x): x is string => Boolean(x));
}

/** What a prescription or medication list entry names, coded inline or through a Medication in the bundle. */
function medicationOf(r: Json, medications: Map<string, Json>): Json | undefined {
  if (r.medicationCodeableConcept) return r.medicationCodeableConcept;
  const ref = r.medicationReference as Json | undefined;
  const code = typeof ref?.reference === 'string' ? medications.get(ref.reference)?.code : undefined;
  return code ?? (ref?.display ? { text: ref.display } : undefined);
}

function medicationKeys(cc: Json | undefined): string[] {
  const name = text(cc);
  return [...(name ? [`name:${name.trim().toLowerCase()}`] : []), ...((cc?.coding as Json[] | undefined) ?? []).filter((c) => c.code).map((c) => `${c.system}|${c.code}`)];
}

const whole = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? v : undefined);

const NOT_PRESCRIBED: Record<string, string> = {
  draft: 'A draft prescription was never sent',
  cancelled: 'The prescription was cancelled',
  'entered-in-error': 'The prescription was entered in error',
};

/**
 * A prescription becomes a medication list entry (active, or complete once filled or stopped),
 * unless the bundle's own medication list has that medication already: Tidewell's export writes a
 * medication both ways when it was prescribed from the list.
 */
function planPrescription(r: Json, bundle: BundleContext): { planned?: Planned; summary: string; reason?: string } {
  const medication = medicationOf(r, bundle.medications);
  const name = text(medication);
  const summary = `Prescription: ${name ?? 'Medication'}${day(r.authoredOn) ? ` on ${day(r.authoredOn)}` : ''}`;
  if (!name) return { summary, reason: 'It names no medication' };
  if (NOT_PRESCRIBED[r.status]) return { summary, reason: NOT_PRESCRIBED[r.status] };
  if (medicationKeys(medication).some((k) => bundle.listedMedications.has(k))) return { summary, reason: 'Brought in through the medication list' };
  const ndc = codeIn(medication, SYSTEMS.ndc);
  const prescriber = r.requester?.display;
  return {
    summary,
    planned: {
      kind: 'section',
      section: 'medications',
      spec: MEDICATIONS,
      input: {
        productName: name,
        status: r.status === 'completed' || r.status === 'stopped' ? 'Complete' : 'Active',
        start: day(r.authoredOn),
        sigText: sigOf(r.dosageInstruction?.[0]),
        routeOfAdministration: routeText(r.dosageInstruction?.[0]?.route),
        refills: whole(r.dispenseRequest?.numberOfRepeatsAllowed),
        quantity: whole(r.dispenseRequest?.quantity?.value),
        daysSupply: whole(r.dispenseRequest?.expectedSupplyDuration?.value),
        description: [prescriber ? `Prescribed by ${prescriber}` : 'Prescribed', noteOf(r)].filter(Boolean).join('\n'),
        code: ndc ? { type: 'NDC', value: ndc } : undefined,
        codings: outsideCodings(medication),
      },
    },
  };
}

/**
 * A text with the patient becomes read-only history, signed: it was never sent from this practice's
 * numbers and belongs to none of its conversations. A text of a Tidewell conversation comes back as a
 * text (SMS), so the chart exports it again as it was; another system's text is a logged text (SMS_LOG).
 */
function planText(r: Json, { patientRefs }: BundleContext): { planned?: Planned; summary: string; reason?: string } {
  const mediums = ((r.medium as Json[] | undefined) ?? []).flatMap((m) => (m.coding ?? []).map((c: Json) => c.code));
  const body = ((r.payload as Json[] | undefined) ?? []).map((p) => p.contentString).filter((t) => typeof t === 'string' && t.trim()).join('\n');
  const at = r.sent ?? r.received;
  const snippet = body.length > 60 ? `${body.slice(0, 57)}…` : body;
  const summary = `Text${day(at) ? ` on ${day(at)}` : ''}${snippet ? `: ${snippet}` : ''}`;
  if (!mediums.includes('SMSWRIT')) return { summary: `Communication: ${text(r.category?.[0]) ?? ''}`.trim(), reason: 'Only texts, calls and faxes are imported' };
  if (r.status !== 'completed') return { summary, reason: 'The text was not delivered' };
  if (!body) return { summary, reason: 'It has no text' };
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return { summary, reason: 'It has no date' };
  const direction = patientRefs.has(String(r.sender?.reference ?? '')) ? 'inbound' : 'outbound';
  const noteType = text(r.category?.[0]) === CONVERSATION_TEXT ? 'SMS' : 'SMS_LOG';
  return { summary, planned: { kind: 'note', noteType, status: 'DELIVERED', at, text: body, data: { text: body, formattedText: escapeHtml(body), direction, timestamp: new Date(at).toISOString() } } };
}

/**
 * What other systems write that a Tidewell chart has no place for, named so the preview reads plainly.
 * What was recorded at an encounter (its diagnoses, vitals, notes…) comes in as resources of its own.
 */
const NOT_KEPT: Record<string, { label: string; reason: string; name: (r: Json) => string | undefined; when: (r: Json) => unknown }> = {
  Encounter: { label: 'Visit', reason: 'Tidewell does not keep visits (encounters); what was recorded at them comes in on its own', name: (r) => text(r.type?.[0]), when: (r) => r.period?.start },
  Organization: { label: 'Organization', reason: 'Named on what it wrote', name: (r) => r.name, when: () => undefined },
  PractitionerRole: { label: 'Practitioner role', reason: 'Named on what it wrote', name: (r) => r.practitioner?.display, when: () => undefined },
  CarePlan: { label: 'Care plan', reason: 'Tidewell does not keep care plans', name: (r) => ((r.category as Json[] | undefined) ?? []).map((c) => (c.coding?.some((x: Json) => x.system === SYSTEMS.snomed) ? text(c) : undefined)).find(Boolean) ?? r.title, when: (r) => r.period?.start ?? r.created },
  CareTeam: { label: 'Care team', reason: 'Tidewell does not keep care teams', name: (r) => r.name, when: (r) => r.period?.start },
  Goal: { label: 'Goal', reason: 'Tidewell does not keep goals', name: (r) => text(r.description), when: (r) => r.startDate },
  Claim: { label: 'Claim', reason: 'Billing records are not imported', name: () => undefined, when: (r) => r.billablePeriod?.start ?? r.created },
  ExplanationOfBenefit: { label: 'Explanation of benefit', reason: 'Billing records are not imported', name: (r) => r.insurer?.display, when: (r) => r.billablePeriod?.start ?? r.created },
  Coverage: { label: 'Insurance coverage', reason: 'Insurance records are not imported', name: (r) => r.payor?.[0]?.display, when: (r) => r.period?.start },
  Provenance: { label: 'Record of where the data came from', reason: 'Not part of the chart', name: () => undefined, when: (r) => r.recorded },
  ImagingStudy: { label: 'Imaging study', reason: 'Tidewell does not keep imaging studies', name: (r) => text(r.procedureCode?.[0]) ?? r.description, when: (r) => r.started },
  Device: { label: 'Device', reason: 'Tidewell does not keep devices', name: (r) => r.deviceName?.[0]?.name ?? text(r.type), when: () => undefined },
  SupplyDelivery: { label: 'Supply delivery', reason: 'Tidewell does not keep supply deliveries', name: (r) => text(r.suppliedItem?.itemCodeableConcept), when: (r) => r.occurrenceDateTime },
  Medication: { label: 'Medication', reason: 'Brought in through the prescription naming it', name: (r) => text(r.code), when: () => undefined },
};

/** A route as words (the chart keeps the route as text, at most 50 characters). */
const routeText = (cc: Json | undefined) => text(cc)?.slice(0, 50);
const extensionOf = (r: Json, url: string): Json | undefined => (r.extension as Json[] | undefined)?.find((e) => e?.url === url);
/** The day an allergy ended: Tidewell's own extension, else (for an allergy no longer active) its last reaction. */
const allergyEnd = (r: Json) => day(extensionOf(r, ALLERGY_EXTENSIONS.end)?.valueDate) ?? (active(r) ? undefined : day(r.lastOccurrence));
/** The allergen Tidewell's allergy checks read, as Tidewell's export wrote it. */
function allergenOf(r: Json): Json | undefined {
  const parts = (extensionOf(r, ALLERGY_EXTENSIONS.allergen)?.extension as Json[] | undefined) ?? [];
  const part = (url: string) => parts.find((p) => p.url === url);
  const kind = part('kind')?.valueCode;
  const name = part('name')?.valueString;
  if (!['ingredient', 'class', 'substance'].includes(kind) || typeof name !== 'string') return undefined;
  const rxcui = part('rxcui')?.valueString;
  return { kind, name, ...(typeof rxcui === 'string' ? { rxcui } : {}) };
}

/** What a verification status says of an allergy or condition that is not so. */
const NOT_SO: Record<string, string> = { refuted: 'refuted', 'entered-in-error': 'entered in error' };
const verification = (r: Json): string | undefined =>
  codeIn(r.verificationStatus, r.resourceType === 'Condition' ? SYSTEMS.conditionVerification : SYSTEMS.allergyVerification) ?? r.verificationStatus?.coding?.[0]?.code;
const NOT_PERFORMED: Record<string, string> = {
  'not-done': 'The procedure was not done',
  'entered-in-error': 'The procedure was entered in error',
  preparation: 'The procedure has not been done yet',
};
const NOT_MEASURED: Record<string, string> = {
  'entered-in-error': 'It was entered in error',
  cancelled: 'It was cancelled',
  registered: 'It has no result yet',
};
/** Smoking status is social history, whatever category a system files it under (Synthea: survey). */
const SOCIAL_LOINCS = new Set(['72166-2', '11367-0', '8663-7', '74013-4']);
/** The LOINCs each vital is also written with: a measuring site or method of the same vital. */
const VITAL_ALSO: Record<string, string[]> = {
  temp: ['8331-1', '8332-9', '8328-7', '8333-7', '8310-5'],
  heartRate: ['8889-8', '8893-0'],
  spo2: ['2708-6', '59417-6'],
  height: ['8306-3', '8308-9'],
  weight: ['3141-9', '8335-2'],
  headCircumference: ['8287-5'],
};
const BP_PANELS = new Set(['85354-9', '55284-4', '35094-2']);
const SYSTOLIC = '8480-6';
const DIASTOLIC = '8462-4';
const VITAL_LOINCS = new Set([...Object.values(VITAL_CODES).map((c) => c.loinc), ...Object.values(VITAL_ALSO).flat(), ...BP_PANELS, SYSTOLIC, DIASTOLIC]);

/** The vitals form's values one vital-signs Observation gives; undefined when it is none of them. */
function vitalValues(r: Json, loincs: string[]): Record<string, number> | undefined {
  const values: Record<string, number> = {};
  const pressure = (code: string | undefined, q: Json | undefined) => {
    if (typeof q?.value !== 'number') return;
    if (code === SYSTOLIC) values.systolic = q.value;
    if (code === DIASTOLIC) values.diastolic = q.value;
  };
  const components = (r.component as Json[] | undefined) ?? [];
  if (loincs.some((c) => BP_PANELS.has(c)) || components.some((c) => [SYSTOLIC, DIASTOLIC].includes(codeIn(c.code, SYSTEMS.loinc) ?? ''))) {
    for (const c of components) pressure(codeIn(c.code, SYSTEMS.loinc), c.valueQuantity);
    return values;
  }
  if (loincs.includes(SYSTOLIC) || loincs.includes(DIASTOLIC)) {
    pressure(loincs.includes(SYSTOLIC) ? SYSTOLIC : DIASTOLIC, r.valueQuantity);
    return values;
  }
  const key = Object.keys(VITAL_CODES).find((k) => loincs.includes(VITAL_CODES[k]!.loinc) || (VITAL_ALSO[k] ?? []).some((c) => loincs.includes(c)));
  if (!key) return undefined;
  const value = vitalValue(key, r.valueQuantity);
  if (value !== undefined) values[key] = value;
  return values;
}

/** A social history answer as written: coded, text, yes/no, or a number with its unit. */
function answerOf(r: Json): string | undefined {
  if (typeof r.valueString === 'string' && r.valueString.trim()) return r.valueString;
  if (r.valueCodeableConcept) return text(r.valueCodeableConcept);
  if (typeof r.valueBoolean === 'boolean') return String(r.valueBoolean);
  if (typeof r.valueInteger === 'number') return String(r.valueInteger);
  const q = r.valueQuantity;
  if (typeof q?.value === 'number') return `${q.value}${q.unit ?? q.code ? ` ${q.unit ?? q.code}` : ''}`;
  return undefined;
}

/** A FHIR date without a time (YYYY-MM-DD) as that day at noon UTC. */
const dateOnly = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) ? `${v}T12:00:00.000Z` : undefined);

/** Who wrote a document at the source (its first author, else who authenticated it). */
const authorOf = (r: Json, bundle: BundleContext) => nameOfRef((r.author as Json[] | undefined)?.[0] ?? r.authenticator, bundle);

/** Who a reference names: its display, else the Practitioner, Organization or person it points to in the bundle. */
function nameOfRef(ref: Json | undefined, bundle: BundleContext, depth = 0): string | undefined {
  if (!ref || depth > 2) return undefined;
  if (typeof ref.display === 'string' && ref.display.trim()) return ref.display.trim();
  const target = typeof ref.reference === 'string' ? bundle.labs.byRef.get(ref.reference) : undefined;
  if (!target) return undefined;
  if (target.resourceType === 'Organization') return typeof target.name === 'string' ? target.name : undefined;
  if (target.resourceType === 'PractitionerRole') return nameOfRef(target.practitioner, bundle, depth + 1);
  const n = target.name?.find((x: Json) => x.use === 'official') ?? target.name?.[0];
  return n?.text || [...(n?.prefix ?? []), ...(n?.given ?? []), n?.family].filter(Boolean).join(' ') || undefined;
}

/** What a resource becomes, or why it is left out. */
function plan(r: Json, bundle: BundleContext): { planned?: Planned; summary: string; reason?: string } {
  switch (r.resourceType) {
    case 'Communication': {
      const medium = ((r.medium as Json[] | undefined) ?? []).flatMap((m) => (m.coding ?? []).map((c: Json) => c.code));
      if (medium.includes('PHONE')) return planCall(r, bundle.comms, bundle.patientRefs);
      if (medium.includes('FAXWRIT')) return planFax(r, bundle.comms);
      return planText(r, bundle);
    }
    case 'QuestionnaireResponse':
      return planFormResponse(r, bundle.comms);
    case 'MedicationDispense': {
      const p = planDispense(r, bundle.comms);
      return { ...p, planned: p.planned ? { kind: 'section', section: 'medications', spec: MEDICATIONS, input: p.planned.input } : undefined };
    }
    case 'DiagnosticReport':
      return planLabReport(r, bundle.labs);
    case 'ServiceRequest':
      return planLabOrder(r, bundle.labs);
    case 'MedicationRequest':
      return planPrescription(r, bundle);
    case 'Appointment':
      // Matched against the practice's users, types and locations in planAppointments().
      return { summary: 'Appointment', planned: { kind: 'appointment' } };
    case 'Location':
      return { summary: `Location: ${String(r.name ?? '')}`.trim(), reason: "Its appointments are booked at this practice's location of that name" };
    case 'AllergyIntolerance': {
      const name = text(r.code) ?? 'Allergy';
      const summary = `Allergy: ${name}`;
      const notSo = NOT_SO[verification(r) ?? ''];
      if (notSo) return { summary, reason: `The allergy was ${notSo}` };
      // Every reaction is kept: the most severe sets the severity, and each manifestation is named once.
      const reactions = (r.reaction as Json[] | undefined) ?? [];
      const severities = reactions.map((x) => x.severity).filter((v): v is (typeof ALLERGY_SEVERITIES)[number] => ALLERGY_SEVERITIES.includes(v));
      const severity = ALLERGY_SEVERITIES.filter((v) => severities.includes(v)).pop();
      const manifestations = [...new Set(reactions.flatMap((x) => ((x.manifestation as Json[] | undefined) ?? []).map((m) => text(m))).filter((m): m is string => Boolean(m) && m!.toLowerCase() !== severity))];
      const recorder = nameOfRef(r.recorder ?? r.asserter, bundle);
      const allergen = allergenOf(r);
      const description = [manifestations.join(', '), ...reactions.map((x) => x.description).filter((d) => typeof d === 'string' && d.trim()), noteOf(r), recorder ? `Recorded by ${recorder}` : undefined].filter(Boolean).join('\n');
      return {
        summary,
        planned: { kind: 'section', section: 'allergies', spec: ALLERGIES, input: { name, description: description || undefined, startDate: day(r.onsetDateTime), endDate: allergyEnd(r), active: active(r), severity, icd10CodeId: codeIn(r.code, SYSTEMS.icd10cm) ?? extensionOf(r, ALLERGY_EXTENSIONS.icd10)?.valueCoding?.code, allergen, codings: outsideCodings(r.code)?.filter((c) => !(allergen?.rxcui && c.system === SYSTEMS.rxnorm && c.code === allergen.rxcui)) } },
      };
    }
    case 'Condition': {
      const name = text(r.code) ?? 'Condition';
      const icd10CodeId = codeIn(r.code, SYSTEMS.icd10cm);
      const health = categories(r).includes('health-concern');
      const summary = health ? `General information: ${name}` : `Diagnosis: ${name}${icd10CodeId ? ` (${icd10CodeId})` : ''}`;
      const notSo = NOT_SO[verification(r) ?? ''];
      if (notSo) return { summary, reason: `The condition was ${notSo}` };
      const recorder = nameOfRef(r.recorder ?? r.asserter, bundle);
      if (health) {
        return { summary, planned: { kind: 'section', section: 'general', spec: GENERAL, input: { name, details: [noteOf(r), recorder ? `Recorded by ${recorder}` : undefined].filter(Boolean).join('\n') || undefined, startDate: day(r.onsetDateTime), endDate: day(r.abatementDateTime), icd10CodeId } } };
      }
      // A diagnosis is dated by month; the day the source gives is kept in its description.
      const days = [day(r.onsetDateTime) ? `Onset on ${day(r.onsetDateTime)}` : undefined, day(r.abatementDateTime) ? `Ended on ${day(r.abatementDateTime)}` : undefined].filter(Boolean).join('; ');
      return {
        summary,
        planned: { kind: 'section', section: 'diagnoses', spec: DIAGNOSES, input: { name, description: [noteOf(r), days, recorder ? `Recorded by ${recorder}` : undefined].filter(Boolean).join('\n') || undefined, date: month(r.onsetDateTime), endDate: month(r.abatementDateTime), pinned: false, active: active(r), icd10CodeId, codings: outsideCodings(r.code) } },
      };
    }
    case 'MedicationStatement': {
      const medication = medicationOf(r, bundle.medications);
      const name = text(medication) ?? 'Medication';
      const ndc = codeIn(medication, SYSTEMS.ndc);
      if (r.status === 'entered-in-error') return { summary: `Medication: ${name}`, reason: 'The medication was entered in error' };
      if (r.status === 'not-taken') return { summary: `Medication: ${name}`, reason: 'The patient does not take it' };
      return {
        summary: `Medication: ${name}`,
        planned: {
          kind: 'section',
          section: 'medications',
          spec: MEDICATIONS,
          input: { productName: name, status: r.status === 'completed' || r.status === 'stopped' ? 'Complete' : 'Active', start: day(r.effectivePeriod?.start ?? r.effectiveDateTime), end: day(r.effectivePeriod?.end), sigText: sigOf(r.dosage?.[0]), routeOfAdministration: routeText(r.dosage?.[0]?.route), description: noteOf(r), code: ndc ? { type: 'NDC', value: ndc } : undefined, codings: outsideCodings(medication) },
        },
      };
    }
    case 'Immunization': {
      const name = text(r.vaccineCode) ?? 'Vaccine';
      const cvx = codeIn(r.vaccineCode, SYSTEMS.cvx);
      const notes = (r.note as Json[] | undefined)?.map((n) => String(n.text)) ?? [];
      const adverse = notes.find((n) => n.startsWith('Adverse reactions: '));
      const summary = `Vaccine: ${name}${day(r.occurrenceDateTime) ? ` on ${day(r.occurrenceDateTime)}` : ''}`;
      if (r.status === 'not-done') return { summary, reason: `The vaccine was not given${text(r.statusReason) ? ` (${text(r.statusReason)})` : ''}` };
      if (r.status === 'entered-in-error') return { summary, reason: 'The vaccine was entered in error' };
      return {
        summary,
        planned: {
          kind: 'section',
          section: 'vaccines',
          spec: VACCINES,
          input: {
            name,
            cvxCode: cvx && cvx !== '999' ? cvx : undefined,
            mvxCode: r.manufacturer?.identifier?.system === SYSTEMS.mvx ? r.manufacturer.identifier.value : undefined,
            date: day(r.occurrenceDateTime),
            doseNumber: r.protocolApplied?.[0]?.doseNumberPositiveInt,
            lotNumber: r.lotNumber,
            expirationDate: day(r.expirationDate),
            administrationSite: r.site?.coding?.[0]?.code,
            administrationRoute: ROUTE_FROM_V2[codeIn(r.route, SYSTEMS.routeV2) ?? ''],
            administeringProviderName: nameOfRef(r.performer?.[0]?.actor, bundle),
            notes: notes.filter((n) => n !== adverse).join('\n') || undefined,
            adverseReactions: adverse?.slice('Adverse reactions: '.length),
          },
        },
      };
    }
    case 'Procedure': {
      const name = text(r.code) ?? 'Procedure';
      const summary = `Surgery: ${name}`;
      const notDone = NOT_PERFORMED[r.status];
      if (notDone) return { summary, reason: `${notDone}${r.status === 'not-done' && text(r.statusReason) ? ` (${text(r.statusReason)})` : ''}` };
      const performer = nameOfRef(r.performer?.[0]?.actor, bundle);
      return { summary, planned: { kind: 'section', section: 'surgeries', spec: SURGERIES, input: { name, description: [noteOf(r), performer ? `Performed by ${performer}` : undefined].filter(Boolean).join('\n') || undefined, date: day(r.performedDateTime ?? r.performedPeriod?.start ?? r.performedString), codings: outsideCodings(r.code) } } };
    }
    case 'FamilyMemberHistory': {
      const c = r.condition?.[0];
      const diagnosis = text(c?.code) ?? 'Condition';
      const rel = codeIn(r.relationship, SYSTEMS.roleCode);
      if (r.status === 'entered-in-error') return { summary: `Family history: ${diagnosis}`, reason: 'It was entered in error' };
      return {
        summary: `Family history: ${diagnosis}${r.relationship ? ` (${text(r.relationship)})` : ''}`,
        planned: {
          kind: 'section',
          section: 'familyHistory',
          spec: FAMILY_HISTORY,
          input: { diagnosis, family: rel && (FAMILY_RELATIONS as readonly string[]).includes(rel) ? [rel] : [], details: c?.note?.map((n: Json) => n.text).join('\n'), icd10CodeId: codeIn(c?.code, SYSTEMS.icd10cm) },
        },
      };
    }
    case 'Observation': {
      const cats = categories(r);
      const loincs = ((r.code?.coding as Json[] | undefined) ?? []).filter((c) => c.system === SYSTEMS.loinc).map((c) => String(c.code));
      const notMeasured = NOT_MEASURED[r.status];
      if (cats.includes('social-history') || loincs.some((c) => SOCIAL_LOINCS.has(c))) {
        const question = text(r.code) ?? 'Social history';
        const answer = answerOf(r);
        if (notMeasured) return { summary: `Social history: ${question}`, reason: notMeasured };
        if (answer === undefined) return { summary: `Social history: ${question}`, reason: 'It has no answer' };
        const at = instant(r.issued ?? r.effectiveDateTime) ?? dateOnly(r.effectiveDateTime ?? r.issued);
        return { summary: `Social history: ${question}: ${answer}`, planned: { kind: 'social', question, answer, at, startDate: day(r.effectivePeriod?.start), endDate: day(r.effectivePeriod?.end), notes: noteOf(r) } };
      }
      if (cats.includes('vital-signs') || (!cats.includes('laboratory') && loincs.some((c) => VITAL_LOINCS.has(c)))) {
        const name = text(r.code) ?? 'Vital sign';
        if (notMeasured) return { summary: `Vital sign: ${name}`, reason: notMeasured };
        const when = r.effectiveDateTime ?? r.effectivePeriod?.start ?? r.effectiveInstant;
        const values = vitalValues(r, loincs);
        if (values === undefined) return { summary: `Vital sign: ${name}`, reason: 'Not one of the vital signs Tidewell records' };
        if (Object.keys(values).length === 0) return { summary: `Vital sign: ${name}`, reason: r.dataAbsentReason || r.component?.some((c: Json) => c.dataAbsentReason) ? 'It has no value' : 'Not in the units Tidewell records' };
        // A value no patient could have (a unit slip at the source) is listed as left out, with the range, not charted.
        const impossible = impossibleVitals(values);
        if (impossible.length) return { summary: `Vital sign: ${name}`, reason: leftOutReason(impossible) };
        // A date without a time is that day's measurement (noon UTC keeps the day in every US time zone).
        const at = instant(when) ?? dateOnly(when);
        if (!at) return { summary: `Vital sign: ${name}`, reason: 'It has no date' };
        // One vitals note per moment measured, however each Observation writes its time zone.
        return { summary: `Vitals on ${day(when)}: ${name}`, planned: { kind: 'vital', at, values } };
      }
      if (cats.includes('exam') && text(r.code) === 'Growth percentile' && typeof r.valueQuantity?.value === 'number' && r.effectiveDateTime) {
        return { summary: `Vitals on ${day(r.effectiveDateTime)}: Growth percentile`, planned: { kind: 'vital', at: r.effectiveDateTime, values: { growthPercentile: r.valueQuantity.value } } };
      }
      if (cats.includes('laboratory')) return planLabObservation(r, bundle.labs);
      return { summary: `Observation: ${text(r.code) ?? ''}`, reason: 'Not a kind Tidewell keeps' };
    }
    case 'DocumentReference': {
      const typeText = r.type?.text;
      const plain = (r.content as Json[] | undefined)?.find((c) => String(c.attachment?.contentType ?? '').startsWith('text/plain'))?.attachment;
      const html = (r.content as Json[] | undefined)?.find((c) => String(c.attachment?.contentType ?? '').startsWith('text/html'))?.attachment;
      const title = r.description ?? text(r.type) ?? 'Document';
      const through = broughtInElsewhere(r, bundle.comms);
      if (through) return { summary: `Note: ${title}`, reason: through };
      if (r.status === 'entered-in-error' || r.docStatus === 'entered-in-error') return { summary: `Note: ${title}`, reason: 'The document was entered in error' };
      if (typeText === 'VITALS') return { summary: `Note: ${title}`, reason: 'Brought in through its vital signs' };
      if (typeText === 'SMS' || typeText === 'SMS_LOG') return { summary: `Note: ${title}`, reason: 'Brought in through its text message' };
      if (typeof typeText === 'string' && typeText.startsWith('RX')) return { summary: `Note: ${title}`, reason: 'Brought in through its prescription' };
      if (typeText === 'LAB') return planLabDocument(r, bundle.labs);
      if (NOTE_TYPES_ELSEWHERE.has(typeText)) return { summary: `Note: ${title}`, reason: 'Sales are not imported yet' };
      if (!plain?.data) return planFile(r, title, authorOf(r, bundle));
      const at = r.context?.period?.start ?? r.date ?? new Date().toISOString();
      return {
        summary: `Note: ${title} (${day(at)})`,
        planned: {
          kind: 'note',
          noteType: NOTE_TYPES_KEPT.has(typeText) ? typeText : 'DOCUMENT',
          status: r.docStatus === 'preliminary' ? 'DRAFT' : 'SIGNED',
          at,
          text: withoutSubjectLine(decode(plain) ?? '', r.description),
          formattedText: decode(html),
          subject: r.description,
          author: authorOf(r, bundle),
        },
      };
    }
    case 'Patient': {
      const demographics = demographicsOf(r, bundle.practiceId);
      if (!demographics) return { summary: `Patient: ${patientName(r)}`.trim(), reason: 'The chart it goes into is this one' };
      const kept = [demographics.race && 'race', demographics.ethnicity && 'ethnicity', demographics.birthSex && 'birth sex', demographics.identifiers && `${demographics.identifiers.length} identifier${demographics.identifiers.length === 1 ? '' : 's'}`].filter(Boolean).join(', ');
      return { summary: `Patient: ${patientName(r)} (${kept})`, planned: { kind: 'demographics', demographics } };
    }
    case 'Practitioner':
      return { summary: `${r.resourceType}: ${patientName(r)}`.trim(), reason: r.resourceType === 'Patient' ? 'The chart it goes into is this one' : 'Named on what it wrote' };
    default: {
      const notKept = NOT_KEPT[String(r.resourceType)];
      if (!notKept) return { summary: String(r.resourceType), reason: `${String(r.resourceType)} is not imported yet` };
      const what = notKept.name(r);
      const when = day(notKept.when(r));
      return { summary: `${notKept.label}${what ? `: ${what}` : ''}${when ? ` on ${when}` : ''}`, reason: notKept.reason };
    }
  }
}

function patientName(r: Json): string {
  const n = r.name?.find((x: Json) => x.use === 'official') ?? r.name?.[0];
  return [...(n?.given ?? []), n?.family].filter(Boolean).join(' ') || n?.text || '';
}

export interface Analysed {
  items: (FhirImportItem & { key: string; planned?: Planned; resource: Json; fullUrl?: string })[];
  sourcePatient?: string;
}

/** decorate: what another format (C-CDA) adds to a section item beyond what FHIR mapping gives (its codes), checked with the rest. */
export async function analyse(practiceId: string, patientId: string, body: FhirImportBody, decorate?: (resource: Json, input: Json) => void): Promise<Analysed> {
  if (!(await getPatient(practiceId, patientId))) throw new NotFoundError(PATIENT_NOT_FOUND);
  const present = await importedKeys(practiceId, patientId);
  const resources = (body.bundle.entry ?? []).map((e) => e.resource as Json);
  const bundle = { ...bundleContext(body.bundle.entry), practiceId };
  const seen = new Map<string, number>();
  const items = resources.map((resource, index) => {
    const fullUrl = body.bundle.entry?.[index]?.fullUrl;
    // Two entries alike in every field (two identical prescriptions) are two items, each with its own marker.
    const content = importKey(resource);
    const nth = (seen.get(content) ?? 0) + 1;
    seen.set(content, nth);
    const key = nth === 1 ? content : createHash('sha256').update(`${content}#${nth}`).digest('hex').slice(0, 40);
    const other = otherPatientOf(resource, bundle, fullUrl);
    const p: ReturnType<typeof plan> =
      other === undefined
        ? plan(resource, bundle)
        : { summary: summaryOf(resource, bundle), reason: resource.resourceType === 'Patient' ? 'Another patient: only the first patient in the bundle comes into this chart' : `It belongs to another patient in the bundle${other ? ` (${other})` : ''}` };
    // A chart item Tidewell would refuse (a diagnosis dated in the future, …) is left out, and the preview says so.
    if (p.planned?.kind === 'section') {
      decorate?.(resource, p.planned.input);
      const parsed = p.planned.spec.input.safeParse(definedInput(p.planned.input));
      if (!parsed.success) p.reason = parsed.error.issues[0]?.message ?? 'Not valid';
      else p.planned.input = parsed.data as Json;
    }
    const action: FhirImportItem['action'] = p.reason ? 'skip' : present.has(key) ? 'present' : 'add';
    return { key, resource, fullUrl, planned: p.planned, resourceType: String(resource.resourceType), summary: p.summary, action, ...(p.reason ? { reason: p.reason } : {}) };
  });
  await planAppointments(practiceId, patientId, items as AppointmentItem[], (body.bundle.entry ?? []) as { fullUrl?: string; resource: Json }[], importKey);
  const source = resources.find((r) => r.resourceType === 'Patient');
  return { items, sourcePatient: source ? patientName(source) : undefined };
}

/** The other patient of the bundle a resource is about (its subject or patient), or undefined when it is about this one. */
function otherPatientOf(r: Json, bundle: BundleContext, fullUrl?: string): string | undefined {
  if (r.resourceType === 'Patient') return refsTo(fullUrl, r).some((ref) => bundle.otherPatients.has(ref)) ? patientName(r) : undefined;
  for (const ref of [r.subject?.reference, r.patient?.reference, r.beneficiary?.reference]) {
    if (typeof ref === 'string' && bundle.otherPatients.has(ref)) return bundle.otherPatients.get(ref) ?? '';
  }
  return undefined;
}

/** What the preview names a resource left out before it is planned. */
function summaryOf(r: Json, bundle: BundleContext): string {
  return r.resourceType === 'Patient' ? `Patient: ${patientName(r)}`.trim() : plan(r, bundle).summary;
}

const definedInput = (input: Json) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== ''));
const publicItem = ({ resourceType, summary, action, reason }: FhirImportItem) => ({ resourceType, summary, action, ...(reason ? { reason } : {}) });
const count = (items: FhirImportItem[], action: FhirImportItem['action']) => items.filter((i) => i.action === action).length;

/** POST …/fhir-import-preview: what the import would add, what is already here, and what it leaves out (and why). */
export async function previewImport(auth: AuthContext, patientId: string, raw: unknown): Promise<FhirImportPreview> {
  const body = parseOrThrow(FhirImportBody, raw);
  const { items, sourcePatient } = await analyse(auth.practiceId, patientId, body);
  await writeAudit(auth, { action: 'read', entity: 'fhir_import_preview', patientId, count: items.length });
  return { sourcePatient, add: count(items, 'add'), present: count(items, 'present'), skip: count(items, 'skip'), items: items.map(publicItem) };
}

/** POST …/fhir-import: adds what the preview listed as new; what another import added meanwhile is left alone. */
export async function importBundle(auth: AuthContext, patientId: string, raw: unknown, now = new Date()): Promise<FhirImportResult> {
  const body = parseOrThrow(FhirImportBody, raw);
  const { items } = await analyse(auth.practiceId, patientId, body);
  const added = await writeImport(auth, patientId, items, now);
  await writeAudit(auth, { action: 'create', entity: 'fhir_import', patientId, count: added });
  return { added, present: count(items, 'present'), skipped: count(items, 'skip'), items: items.map(publicItem) };
}

/** Writes what analyse() planned as new; an item the store refuses turns to 'skip'. Returns how many were added. */
export async function writeImport(auth: AuthContext, patientId: string, items: Analysed['items'], now = new Date()): Promise<number> {
  const at = now.toISOString();
  let added = 0;
  const vitals = new Map<string, Record<string, number>>();
  // Who measured them at the source, by the moment measured (a practice import matches them to a user here).
  const vitalAuthors = new Map<string, Pick<Extract<Planned, { kind: 'vital' }>, 'author' | 'authorUser'>>();
  const social = new Map<string, { question: string; startDate?: string; endDate?: string; notes?: string; answers: { answer: string; at?: string }[] }>();
  // Notes are written after every file is in place, so a file goes onto the note it came with
  // (context.related, as Tidewell's export writes it) when that note comes in with it.
  const notes = new Map<string, Note>();
  const pending: Note[] = [];
  const labNotes = new Map<string, Note>();
  const ordered = [...items.filter((i) => i.planned?.kind !== 'file'), ...items.filter((i) => i.planned?.kind === 'file')];
  const appointments: AppointmentItem[] = [];
  for (const item of ordered) {
    if (item.action !== 'add' || !item.planned) continue;
    const p = item.planned;
    if (p.kind === 'appointment') {
      appointments.push(item);
      continue;
    }
    if (p.kind === 'demographics') {
      if (!(await claimImportMarker(auth.practiceId, patientId, item.key, String(item.resource.resourceType), at))) continue;
      const current = await getPatient(auth.practiceId, patientId);
      await setPatientDemographics(auth.practiceId, patientId, mergeDemographics(current?.demographics, p.demographics), now);
      added++;
      continue;
    }
    // Checked before the marker is claimed, so a resource Tidewell cannot keep is never marked as brought in.
    if (p.kind === 'section') {
      if (!(await claimImportMarker(auth.practiceId, patientId, item.key, String(item.resource.resourceType), at))) continue;
      // The input was checked (and given its defaults) by the section's own rules in analyse().
      await createSectionItem(auth.practiceId, p.section, await buildStored(p.spec, patientId, p.input));
    } else {
      // A file is stored before its marker is claimed: one the store refuses is left out, and the import goes on.
      const stored = await storeAll(patientId, p);
      if (!stored) {
        Object.assign(item, { action: 'skip', reason: FILE_NOT_STORED });
        continue;
      }
      if (!(await claimImportMarker(auth.practiceId, patientId, item.key, String(item.resource.resourceType), at))) {
        await Promise.all(stored.map((f) => removeFile(f.key)));
        continue;
      }
      if (p.kind === 'vital') {
        vitals.set(p.at, { ...(vitals.get(p.at) ?? {}), ...p.values });
        if ((p.author || p.authorUser) && !vitalAuthors.has(p.at)) vitalAuthors.set(p.at, { author: p.author, authorUser: p.authorUser });
      }
      else if (p.kind === 'lab') {
        // The parts of one lab note (its reports, or one day's results without a report) make one note.
        let note = labNotes.get(p.group);
        if (note) note.data = mergeLabData(note.data as never, p.data) as Note['data'];
        else {
          note = importedNote(auth, patientId, at, { kind: 'note', noteType: 'LAB', status: 'SIGNED', at: p.at, text: '', data: { text: '', ...p.data } });
          labNotes.set(p.group, note);
          pending.push(note);
        }
        for (const host of p.hosts) notes.set(host, note);
        note.files.push(...stored);
      }
      else if (p.kind === 'file') {
        const host = p.related ? notes.get(p.related) : undefined;
        if (host) host.files.push(...stored);
        else pending.push({ ...importedNote(auth, patientId, at, { kind: 'note', noteType: 'DOCUMENT', status: 'SIGNED', at: p.at, text: '', data: { text: '', formattedText: '', subject: p.name }, author: p.author, authorUser: p.authorUser }), files: stored });
      }
      else if (p.kind === 'social') {
        const s = social.get(p.question) ?? { question: p.question, startDate: p.startDate, endDate: p.endDate, notes: p.notes, answers: [] };
        s.answers.push({ answer: p.answer, at: p.at });
        social.set(p.question, s);
      } else {
        const note = importedNote(auth, patientId, at, p);
        note.files.push(...stored);
        if (item.fullUrl) notes.set(item.fullUrl, note);
        pending.push(note);
      }
    }
    added++;
  }
  for (const note of pending) await insertNote(auth.practiceId, note);
  for (const [when, values] of vitals) {
    await insertNote(auth.practiceId, importedNote(auth, patientId, at, { kind: 'note', noteType: 'VITALS', status: 'SIGNED', at: when, text: '', data: { ...values, tempUnit: '°F', heightUnit: 'in', weightUnit: 'lb' }, ...vitalAuthors.get(when) }));
  }
  for (const s of social.values()) {
    const answers = s.answers.map((a) => ({ ident: randomUUID(), answer: a.answer, timestamp: a.at ?? at, userId: auth.userId }));
    await createSectionItem(auth.practiceId, 'socialHistory', await buildStored(SOCIAL_HISTORY, patientId, { question: s.question, answers, startDate: s.startDate ?? '', endDate: s.endDate ?? '', notes: s.notes ?? '', pinned: false }));
  }
  added += await importAppointments(auth, patientId, appointments, { claim: (item) => claimImportMarker(auth.practiceId, patientId, item.key, String(item.resource.resourceType), at) });
  return added;
}

export const FILE_NOT_STORED = 'The file could not be stored';

type FileToStore = { name: string; contentType: string; bytes: Buffer };

/** Stores every file a planned item brings; undefined (and nothing left stored) when the store refuses one. */
async function storeAll(patientId: string, p: Planned): Promise<Note['files'] | undefined> {
  const files: FileToStore[] = p.kind === 'file' ? [p] : p.kind === 'lab' ? (p.file ? [p.file] : []) : p.kind === 'note' ? (p.files ?? []) : [];
  const stored: Note['files'] = [];
  for (const f of files) {
    try {
      stored.push(await storeFile(patientId, f));
    } catch (error) {
      log.warn('fhir import: file not stored', { patientId, error: error instanceof Error ? error.name : 'unknown' });
      await Promise.all(stored.map((s) => removeFile(s.key)));
      return undefined;
    }
  }
  return stored;
}

async function storeFile(patientId: string, p: FileToStore): Promise<Note['files'][number]> {
  const name = safeFileName(p.name);
  const key = `patients/${patientId}/documents/${randomUUID()}/${name}`;
  const { s3, bucket } = store();
  await s3.putObject({ bucket, key: storedKey(key) }, p.bytes, { contentType: p.contentType });
  return { key, name, contentType: p.contentType, size: p.bytes.length };
}

async function removeFile(key: string): Promise<void> {
  const { s3, bucket } = store();
  await s3.deleteObject({ bucket, key: storedKey(key) }).catch(() => undefined);
}

function importedNote(auth: AuthContext, patientId: string, at: string, p: Extract<Planned, { kind: 'note' }>): Note {
  // A text keeps its DELIVERED status; signing it is what makes it read-only.
  const text = p.noteType === 'SMS_LOG' || p.noteType === 'SMS';
  const signed = p.status === 'SIGNED' || text || p.signed === true;
  const history = p.signed === true || text;
  // A text the patient sent that nobody of the practice is named as receiving was taken by the texting line.
  const line = text && p.data?.direction === 'inbound' && !p.authorUser && !p.author;
  return {
    noteId: randomUUID(),
    noteType: p.noteType,
    status: p.status,
    signed: signed ? at : null,
    eventTimestamp: new Date(Date.parse(p.at) || Date.now()).toISOString(),
    timestamp: at,
    createdAt: at,
    data: p.data ?? { text: p.text, formattedText: p.formattedText ?? escapeHtml(p.text), ...(p.subject ? { subject: p.subject } : {}) },
    patientId,
    hidden: false,
    files: [],
    // Who wrote it at the source, when the bundle names them: not the user who brought it in.
    author: line ? { ...TEXTING_LINE } : p.authorUser ?? (p.author ? { userId: '', name: p.author.slice(0, 200) } : { userId: auth.userId, name: auth.name || auth.email, email: auth.email }),
    onBehalfOf: null,
    noteVersion: 1,
    // A note matched to its author here was signed by them at the source: the signer stays the author.
    // A call's, fax's or text's note is read-only history that nobody signed at the source either.
    signedBy: signed && !history ? (p.authorUser ?? { userId: auth.userId, name: auth.name || auth.email, email: auth.email }) : null,
  };
}

const escapeHtml = (s: string) => s.split('\n').map((line) => `<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`).join('');
