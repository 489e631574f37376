import { LAB_TESTS, type LabNoteData, type LabResultItem } from '../../../shared/labs/lab-schema.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import { clean, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS, type FhirResource } from './fhir-core.js';
import type { ChartMapper, MapContext } from './model.js';

const LAB_CATEGORY = [{ coding: [{ system: SYSTEMS.obsCategory, code: 'laboratory', display: 'Laboratory' }] }];
const LAB_SECTION = [{ coding: [{ system: SYSTEMS.diagnosticServiceSection, code: 'LAB', display: 'Laboratory' }] }];
const SNOMED_LAB_PROCEDURE = { system: SYSTEMS.snomed, code: '108252007', display: 'Laboratory procedure' };
const ORDER_STATUS: Record<string, string> = { ordered: 'active', partial: 'active', final: 'completed', cancelled: 'revoked' };
const REPORT_STATUS: Record<string, string> = { ordered: 'registered', partial: 'partial', final: 'final', cancelled: 'cancelled' };
const LOINC_CODE = /^\d{1,7}-\d$/;
/** A test's name: Tidewell's ordering list, else the name an imported order gave it. */
const testName = (d: LabNoteData, code: string): string | undefined => LAB_TESTS.find((t) => t.code === code)?.display ?? d.testNames?.[code];

function resultObservation(practiceId: string, ctx: MapContext, note: Note, d: LabNoteData, r: LabResultItem): FhirResource {
  const range = r.ranges?.[0];
  const unit = r.valueQuantity?.unit;
  return clean({
    resourceType: 'Observation',
    id: stableUuid('Observation', practiceId, 'lab', note.noteId, r.id),
    identifier: [sourceIdentifier(practiceId, 'lab-result', `${note.noteId}/${r.id}`)],
    status: d.orderStatus === 'final' ? 'final' : 'preliminary',
    category: LAB_CATEGORY,
    code: { coding: LOINC_CODE.test(r.code) ? [{ system: SYSTEMS.loinc, code: r.code, display: r.codeText ?? r.text }] : [], text: r.text },
    subject: ctx.patientRef,
    effectiveDateTime: fhirInstant(d.collectedAt) ?? fhirInstant(r.issued) ?? fhirInstant(note.eventTimestamp),
    issued: fhirInstant(r.issued),
    valueQuantity: r.valueQuantity ? { value: r.valueQuantity.value, unit, system: unit ? SYSTEMS.ucum : undefined, code: unit } : undefined,
    valueString: r.valueQuantity ? undefined : r.valueString,
    interpretation: r.interpretation ? [{ coding: [{ system: SYSTEMS.interpretation, code: r.interpretation }] }] : [],
    referenceRange:
      range && (range.low !== undefined || range.high !== undefined)
        ? [
            {
              low: range.low !== undefined ? { value: range.low, unit, system: unit ? SYSTEMS.ucum : undefined, code: unit } : undefined,
              high: range.high !== undefined ? { value: range.high, unit, system: unit ? SYSTEMS.ucum : undefined, code: unit } : undefined,
            },
          ]
        : [],
  });
}

function labResources(practiceId: string, ctx: MapContext, note: Note): FhirResource[] {
  const d = note.data as LabNoteData;
  const requester = ctx.practitioner(d.orderingProvider ?? note.author);
  const orders = (d.tests ?? []).map((code) =>
    clean({
      resourceType: 'ServiceRequest',
      id: stableUuid('ServiceRequest', practiceId, note.noteId, code),
      identifier: [
        sourceIdentifier(practiceId, 'lab-order', `${note.noteId}/${code}`),
        ...(d.labReferenceId ? [{ system: 'https://tidewell.app/fhir/identifier/lab-reference', value: d.labReferenceId }] : []),
      ],
      status: ORDER_STATUS[d.orderStatus ?? 'ordered'] ?? 'active',
      intent: 'order',
      category: [{ coding: [SNOMED_LAB_PROCEDURE] }],
      code: { coding: LOINC_CODE.test(code) ? [{ system: SYSTEMS.loinc, code, display: testName(d, code) }] : [], text: testName(d, code) ?? code },
      subject: ctx.patientRef,
      authoredOn: fhirInstant(note.eventTimestamp),
      requester,
      performer: d.orderedFrom ? [{ display: d.orderedFrom }] : [],
    }),
  );
  const results = (d.results ?? []).map((r) => ({ r, obs: resultObservation(practiceId, ctx, note, d, r) }));
  // One report per panel the lab reported; results without a panel share the order's report.
  const panels = new Map<string, typeof results>();
  for (const x of results) {
    const key = x.r.reportId ?? x.r.panel ?? '';
    panels.set(key, [...(panels.get(key) ?? []), x]);
  }
  const reports = [...panels.entries()].map(([key, lines]) => {
    // A panel is the report's code (as Tidewell's tests hold it) or its name (as the lab's report, or an imported one, gives it).
    const panel = lines.find((l) => l.r.panel)?.r.panel;
    const tests = d.tests ?? [];
    const named = panel ? tests.findIndex((c) => c === panel || testName(d, c) === panel) : -1;
    const index = named >= 0 ? named : orders.length === 1 ? 0 : -1;
    const order = orders[index];
    const orderCode = tests[index];
    const code = panel && LOINC_CODE.test(panel) ? panel : orderCode && LOINC_CODE.test(orderCode) ? orderCode : undefined;
    const name =
      (panel && !LOINC_CODE.test(panel) ? panel : undefined) ??
      (code ? testName(d, code) : undefined) ??
      (orderCode ? (testName(d, orderCode) ?? orderCode) : undefined);
    return clean({
      resourceType: 'DiagnosticReport',
      id: stableUuid('DiagnosticReport', practiceId, note.noteId, key),
      identifier: [sourceIdentifier(practiceId, 'lab-report', `${note.noteId}/${key}`)],
      basedOn: order ? [{ reference: `urn:uuid:${order.id}` }] : [],
      status: REPORT_STATUS[d.orderStatus ?? 'final'] ?? 'final',
      category: LAB_SECTION,
      code: { coding: code ? [{ system: SYSTEMS.loinc, code, display: testName(d, code) }] : [], text: name ?? 'Laboratory report' },
      subject: ctx.patientRef,
      effectiveDateTime: fhirInstant(d.collectedAt) ?? fhirInstant(note.eventTimestamp),
      issued: fhirInstant(d.lastUpdated) ?? fhirInstant(note.timestamp),
      performer: d.orderedFrom ? [{ display: d.orderedFrom }] : [],
      result: lines.map((l) => ({ reference: `urn:uuid:${l.obs.id}` })),
      conclusion: d.conclusions?.[key],
    });
  });
  return [...orders, ...results.map((x) => x.obs), ...(results.length > 0 ? reports : [])];
}

/** Lab orders (ServiceRequest), their results (laboratory Observations) and reports (DiagnosticReport). */
export const labs: ChartMapper = {
  kind: 'lab',
  map: (src, ctx) => src.notes.filter((n) => n.noteType === 'LAB').flatMap((n) => labResources(src.practiceId, ctx, n)),
};
