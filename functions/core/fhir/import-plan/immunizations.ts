import { ADMINISTRATION_ROUTES } from '../../../../shared/chart/constants.js';
import { VACCINES } from '../../chart/sections.js';
import { SYSTEMS } from '../fhir-core.js';
import { nameOfRef, type BundleContext } from './context.js';
import type { Json, PlanOutcome } from './planned.js';
import { codeIn, day, text } from './read.js';

const ROUTE_FROM_V2: Record<string, string> = Object.fromEntries(ADMINISTRATION_ROUTES.map((r) => [r === 'NAS' ? 'NS' : r, r]));

/** An Immunization becomes a vaccine given, unless it was not given or was entered in error. */
export function planImmunization(r: Json, bundle: BundleContext): PlanOutcome {
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
