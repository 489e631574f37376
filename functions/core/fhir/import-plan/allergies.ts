import { ALLERGY_SEVERITIES } from '../../../../shared/chart/constants.js';
import { ALLERGIES } from '../../chart/sections.js';
import { ALLERGY_EXTENSIONS } from '../allergies.js';
import { SYSTEMS } from '../fhir-core.js';
import { nameOfRef, type BundleContext } from './context.js';
import type { Json, PlanOutcome } from './planned.js';
import { active, codeIn, day, extensionOf, noteOf, NOT_SO, outsideCodings, text, verification } from './read.js';

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

/** An AllergyIntolerance becomes an allergy, unless it was refuted or entered in error. */
export function planAllergy(r: Json, bundle: BundleContext): PlanOutcome {
  const name = text(r.code) ?? 'Allergy';
  const summary = `Allergy: ${name}`;
  const notSo = NOT_SO[verification(r) ?? ''];
  if (notSo) return { summary, reason: `The allergy was ${notSo}` };
  // Every reaction is kept: the most severe sets the severity, and each manifestation is named once.
  const reactions = (r.reaction as Json[] | undefined) ?? [];
  const severities = reactions.map((x) => x.severity).filter((v): v is (typeof ALLERGY_SEVERITIES)[number] => ALLERGY_SEVERITIES.includes(v));
  const severity = ALLERGY_SEVERITIES.filter((v) => severities.includes(v)).pop();
  const manifestations = [
    ...new Set(
      reactions
        .flatMap((x) => ((x.manifestation as Json[] | undefined) ?? []).map((m) => text(m)))
        .filter((m): m is string => Boolean(m) && m!.toLowerCase() !== severity),
    ),
  ];
  const recorder = nameOfRef(r.recorder ?? r.asserter, bundle);
  const allergen = allergenOf(r);
  const description = [
    manifestations.join(', '),
    ...reactions.map((x) => x.description).filter((d) => typeof d === 'string' && d.trim()),
    noteOf(r),
    recorder ? `Recorded by ${recorder}` : undefined,
  ]
    .filter(Boolean)
    .join('\n');
  return {
    summary,
    planned: {
      kind: 'section',
      section: 'allergies',
      spec: ALLERGIES,
      input: {
        name,
        description: description || undefined,
        startDate: day(r.onsetDateTime),
        endDate: allergyEnd(r),
        active: active(r),
        severity,
        icd10CodeId: codeIn(r.code, SYSTEMS.icd10cm) ?? extensionOf(r, ALLERGY_EXTENSIONS.icd10)?.valueCoding?.code,
        allergen,
        codings: outsideCodings(r.code)?.filter((c) => !(allergen?.rxcui && c.system === SYSTEMS.rxnorm && c.code === allergen.rxcui)),
      },
    },
  };
}
