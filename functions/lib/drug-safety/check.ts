import {
  allergyWarningMessage,
  DRUG_SAFETY_MESSAGES,
  interactionWarningMessage,
  SafetyOverrideInput,
  type DrugSafetyCheckResponse,
  type SafetyOverride,
  type SafetyWarning,
} from '../../../shared/chart/drug-safety.js';
import { ALLERGY_SEVERITY_LABELS } from '../../../shared/chart/constants.js';
import type { Allergy, Medication } from '../../../shared/chart/sections.js';
import type { AuthContext } from '../auth/auth-context.js';
import { writeAudit } from '../audit/audit-repository.js';
import { HttpError, ValidationError } from '../errors.js';
import { listSection } from '../../data/chart/chart-repository.js';
import { dayIn, practiceTimeZone } from '../../data/calendar/practice-day.js';
import { onSide, type DdiPair, type DrugKnowledge } from './drug-knowledge.js';
import { ddiCodes, drugClassCodes } from './sources.js';

/** The drug being chosen, as the check reads it: its names (generic and brand) and what to call it. */
export interface DrugToCheck {
  label: string;
  names: string;
}

const capitalize = (s: string) => s.replace(/^[a-z]/, (c) => c.toUpperCase());

/** The allergy warnings: active allergies whose ingredient or class the drug has (pure, for tests and the use-case). */
export function allergyWarnings(knowledge: DrugKnowledge, drug: DrugToCheck, ingredients: readonly string[], allergies: readonly Allergy[]): SafetyWarning[] {
  const out: SafetyWarning[] = [];
  for (const allergy of allergies) {
    // A resolved, refuted or ended allergy (active false) does not warn.
    if (allergy.active === false) continue;
    const covers = knowledge.coverage(allergy.name, allergy.allergen);
    let because: string | null = null;
    for (const i of ingredients) {
      if (covers.ingredients.has(i)) {
        because = `${drug.label} contains ${knowledge.displayName(i).toLowerCase()}`;
        break;
      }
      const cls = knowledge.classesOf(i).find((c) => covers.classes.has(c));
      if (cls) {
        because = `${capitalize(knowledge.displayName(i))} is a ${cls}`;
        break;
      }
    }
    if (!because) continue;
    const w = {
      id: `allergy:${allergy.ident}`,
      kind: 'allergy' as const,
      drug: drug.label,
      cause: allergy.name,
      severity: allergy.severity ? ALLERGY_SEVERITY_LABELS[allergy.severity] : 'Severity not recorded',
      reaction: allergy.description.trim(),
      because,
    };
    out.push({ ...w, message: allergyWarningMessage(w) });
  }
  return out;
}

/** Active on the practice's day: status Active and not ended before today. */
export function isActiveMedication(m: Pick<Medication, 'status' | 'end'>, today: string): boolean {
  return (m.status ?? 'Active') === 'Active' && (!m.end || m.end >= today);
}

/** The interaction warnings: a listed pair with the drug on one side and an active medication on the other. */
export function interactionWarnings(
  knowledge: DrugKnowledge,
  pairs: readonly DdiPair[],
  drug: DrugToCheck,
  ingredients: readonly string[],
  medications: readonly Medication[],
): SafetyWarning[] {
  const out: SafetyWarning[] = [];
  for (const med of medications) {
    const medIngredients = knowledge.ingredientsIn([med.productName, med.description ?? ''].join(' '));
    // The same drug again (a refill, another strength) is not an interaction with itself.
    const others = medIngredients.filter((i) => !ingredients.includes(i));
    if (others.length === 0) continue;
    for (const pair of pairs) {
      const hit =
        ([pair.a, pair.b] as const)
          .map((side, k) => {
            const mine = onSide(knowledge, ingredients, side);
            const theirs = onSide(knowledge, others, k === 0 ? pair.b : pair.a);
            return mine.length && theirs.length ? { mine: mine[0]!, theirs: theirs[0]!, mySide: side, theirSide: k === 0 ? pair.b : pair.a } : null;
          })
          .find(Boolean) ?? null;
      if (!hit) continue;
      const w = {
        id: `interaction:${pair.id}:${med.ident}`,
        kind: 'interaction' as const,
        drug: drug.label,
        cause: med.productName,
        severity: pair.severity,
        reaction: pair.effect,
        because:
          hit.mySide === hit.theirSide
            ? `${capitalize(knowledge.displayName(hit.mine))} and ${knowledge.displayName(hit.theirs).toLowerCase()} are both ${hit.mySide.label}`
            : `${capitalize(knowledge.displayName(hit.mine))} (${hit.mySide.label}) with ${knowledge.displayName(hit.theirs).toLowerCase()} (${hit.theirSide.label})`,
      };
      out.push({ ...w, message: interactionWarningMessage(w) });
    }
  }
  return out;
}

/**
 * The checks for giving `drug` to the patient: their active allergies by ingredient and class, and
 * their active medications against the interaction list. Reads the chart (the caller audits it).
 */
export async function drugSafetyWarnings(practiceId: string, patientId: string, drug: DrugToCheck, now = new Date()): Promise<DrugSafetyCheckResponse> {
  const [{ value: knowledge }, { value: pairs }, allergies, medications, zone] = await Promise.all([
    drugClassCodes(),
    ddiCodes(),
    listSection(practiceId, patientId, 'allergies'),
    listSection(practiceId, patientId, 'medications'),
    practiceTimeZone(practiceId),
  ]);
  const today = dayIn(now, zone);
  const ingredients = knowledge.ingredientsIn(drug.names);
  const active = medications.filter((m) => isActiveMedication(m, today));
  return {
    drug: drug.label,
    ingredients: ingredients.map((i) => knowledge.displayName(i)),
    warnings: [...allergyWarnings(knowledge, drug, ingredients, allergies), ...interactionWarnings(knowledge, pairs, drug, ingredients, active)],
  };
}

/** 422: signing over warnings that have no override reason. The body lists them for the window. */
export class SafetyWarningsError extends HttpError {
  constructor(readonly warnings: SafetyWarning[]) {
    super(422, DRUG_SAFETY_MESSAGES.needsOverride(warnings.length), { warnings, fieldErrors: { safetyOverride: DRUG_SAFETY_MESSAGES.reasonRequired } });
  }
}

/**
 * At sign: the warnings for the drugs now, and the override the signer sent. No warnings: no
 * override is kept. Warnings and no reason: 422 listing them. Warnings and a reason: the override to
 * store with the note (who, when, why, over what).
 */
export async function requireSafetyOverride(
  auth: AuthContext,
  patientId: string,
  drugs: readonly DrugToCheck[],
  sent: unknown,
  signer: { userId: string; name: string },
  now: Date,
): Promise<SafetyOverride | null> {
  const warnings: SafetyWarning[] = [];
  for (const drug of drugs) {
    for (const w of (await drugSafetyWarnings(auth.practiceId, patientId, drug, now)).warnings)
      if (!warnings.some((x) => x.id === w.id && x.drug === w.drug)) warnings.push(w);
  }
  if (warnings.length === 0) return null;
  if (sent === undefined || sent === null) throw new SafetyWarningsError(warnings);
  const parsed = SafetyOverrideInput.safeParse(sent);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? DRUG_SAFETY_MESSAGES.reasonRequired;
    if (typeof (sent as { reason?: unknown }).reason === 'string' && !(sent as { reason: string }).reason.trim()) throw new SafetyWarningsError(warnings);
    throw new ValidationError(message, { safetyOverride: message });
  }
  return { reason: parsed.data.reason, warnings, by: { userId: signer.userId, name: signer.name }, at: now.toISOString() };
}

/** The override, audited on the patient's trail with what was overridden and why. */
export function auditSafetyOverride(auth: AuthContext, noteId: string, patientId: string, override: SafetyOverride): Promise<void> {
  return writeAudit(auth, {
    action: 'update',
    entity: 'DRUG_SAFETY_OVERRIDE',
    entityId: noteId,
    patientId,
    detail: `${override.warnings.map((w) => w.message).join(' ')} Reason: ${override.reason}`,
  });
}
