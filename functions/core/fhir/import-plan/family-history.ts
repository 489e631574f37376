import { FAMILY_RELATIONS } from '../../../../shared/chart/constants.js';
import { FAMILY_HISTORY } from '../../chart/sections.js';
import { SYSTEMS } from '../fhir-core.js';
import type { Json, PlanOutcome } from './planned.js';
import { codeIn, text } from './read.js';

/** A FamilyMemberHistory becomes a family history item: its first condition, and the relative when Tidewell names that relation. */
export function planFamilyHistory(r: Json): PlanOutcome {
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
      input: {
        diagnosis,
        family: rel && (FAMILY_RELATIONS as readonly string[]).includes(rel) ? [rel] : [],
        details: c?.note?.map((n: Json) => n.text).join('\n'),
        icd10CodeId: codeIn(c?.code, SYSTEMS.icd10cm),
      },
    },
  };
}
