import { ADMINISTRATION_ROUTE_LABELS, ADMINISTRATION_SITE_LABELS, type AdministrationRoute } from '../../../shared/chart/constants.js';
import { clean, fhirDate, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS } from './fhir-core.js';
import type { ChartMapper } from './model.js';

/** The chart's routes in HL7 v2 table 0162 (nasal is NS there). */
const ROUTE_V2: Record<AdministrationRoute, string> = { IM: 'IM', SC: 'SC', ID: 'ID', IN: 'IN', PO: 'PO', IV: 'IV', TD: 'TD', BUC: 'BUC', SL: 'SL', NAS: 'NS' };
const SITE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v2-0163';

/** US Core Immunization: status, vaccineCode (CVX), patient, occurrence, primarySource. */
export const immunizations: ChartMapper = {
  kind: 'vaccine',
  map: (src, ctx) =>
    src.vaccines.map((v) =>
      clean({
        resourceType: 'Immunization',
        id: stableUuid('Immunization', src.practiceId, v.ident),
        identifier: [sourceIdentifier(src.practiceId, 'vaccine', v.ident)],
        status: 'completed',
        // A dose recorded by name only is named, not coded: CVX 999 ("unknown") would tell a reader less than the name.
        vaccineCode: { coding: v.cvxCode ? [{ system: SYSTEMS.cvx, code: v.cvxCode }] : [], text: v.name },
        patient: ctx.patientRef,
        occurrenceDateTime: fhirDate(v.date),
        occurrenceString: fhirDate(v.date) ? undefined : 'unknown',
        recorded: fhirInstant(v.createdAt),
        primarySource: Boolean(v.administeringProviderName || v.lotNumber),
        manufacturer: v.mvxCode ? { identifier: { system: SYSTEMS.mvx, value: v.mvxCode }, display: v.mvxCode } : undefined,
        lotNumber: v.lotNumber,
        expirationDate: fhirDate(v.expirationDate),
        site: v.administrationSite
          ? {
              coding: [
                { system: SITE_SYSTEM, code: v.administrationSite, display: (ADMINISTRATION_SITE_LABELS as Record<string, string>)[v.administrationSite] },
              ],
            }
          : undefined,
        route: v.administrationRoute
          ? { coding: [{ system: SYSTEMS.routeV2, code: ROUTE_V2[v.administrationRoute], display: ADMINISTRATION_ROUTE_LABELS[v.administrationRoute] }] }
          : undefined,
        performer: v.administeringProviderName ? [{ actor: { display: v.administeringProviderName } }] : [],
        note: [v.notes, v.adverseReactions && `Adverse reactions: ${v.adverseReactions}`].filter(Boolean).map((text) => ({ text })),
        protocolApplied: v.doseNumber ? [{ doseNumberPositiveInt: v.doseNumber, series: v.grouping?.name }] : [],
      }),
    ),
};
