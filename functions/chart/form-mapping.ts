/** POST /v2/patients/{patientId}/map-health-history, loaded with its first request (handler.ts). */
import { FORM_MESSAGES } from '../../shared/forms/form-constants.js';
import { answerEntries, MapHealthHistoryBody, type MapHealthHistoryResult, type MappingSection } from '../../shared/forms/forms.js';
import { PatientChartParams } from '../../shared/chart/sections.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { route } from '../lib/http/group-handler.js';
import { requireNote, writeNextVersion } from '../data/notes/note-repository.js';
import { assertPatientExists } from '../data/chart/chart-repository.js';
import { createSectionItemFrom, listSectionItems, parseOrThrow, type SectionSpec } from '../core/chart/section-crud.js';
import { ALLERGIES, DIAGNOSES, FAMILY_HISTORY, GENERAL, MEDICATIONS, SURGERIES } from '../core/chart/sections.js';
import { createSocialHistory, SOCIAL_HISTORY, updateSocialHistory } from '../core/chart/social-history.js';
import { formDataOf } from '../data/forms/form-note-data.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const LIST_SECTIONS: Partial<Record<MappingSection, { spec: SectionSpec<any>; item: (entry: string, formSource: string) => Record<string, unknown> }>> = {
  MEDICATIONS: { spec: MEDICATIONS, item: (entry, formSource) => ({ productName: entry, status: 'Active', formSource }) },
  ALLERGIES: { spec: ALLERGIES, item: (entry, formSource) => ({ name: entry, formSource }) },
  MEDICAL_CONDITIONS: { spec: DIAGNOSES, item: (entry, formSource) => ({ name: entry, pinned: false, formSource }) },
  SURGERIES: { spec: SURGERIES, item: (entry, formSource) => ({ name: entry, formSource }) },
  FAMILY_HISTORY: { spec: FAMILY_HISTORY, item: (entry, formSource) => ({ diagnosis: entry, formSource }) },
};

/**
 * Add to Health Summary (spec chart-data §3–§5): each enabled question with an answer is written
 * into its chart section with the form's name as `formSource`; a Social question adds its answer
 * to the patient's item of that title (a new answer only when it changed), a General one becomes a
 * titled item. The FORM note records the date each time and becomes fulfilled.
 */
export async function mapHealthHistory(auth: AuthContext, patientId: string, body: MapHealthHistoryBody, now = new Date()): Promise<MapHealthHistoryResult> {
  await assertPatientExists(auth.practiceId, patientId);
  const note = await requireNote(auth.practiceId, body.noteId);
  if (note.noteType !== 'FORM' || note.patientId !== patientId || note.status === 'DELETED') throw new NotFoundError('Form note not found');
  const data = formDataOf(note);
  if (data.formId !== body.formId) throw new ValidationError('The form does not match the note', { formId: 'does not match the note' });
  if (note.status !== 'DELIVERED' && note.status !== 'FULFILLED') throw new ValidationError(FORM_MESSAGES.notSubmitted);
  const formSource = data.formName;
  const written: MapHealthHistoryResult['written'] = [];
  let social: { ident: string; question: string }[] | undefined;
  // Added again, an entry the section already has under that name is not written twice.
  const known = new Map<MappingSection, Set<string>>();
  const nameOf = (item: Record<string, unknown>) =>
    String(item.productName ?? item.name ?? item.diagnosis ?? '')
      .trim()
      .toLowerCase();
  for (const q of body.questions) {
    if (!q.enabled || !q.section) continue;
    const entries = answerEntries(q.section, q.answer);
    for (const entry of entries) {
      const list = LIST_SECTIONS[q.section];
      if (list) {
        if (!known.has(q.section)) known.set(q.section, new Set((await listSectionItems(auth, list.spec, patientId)).map(nameOf)));
        const names = known.get(q.section)!;
        if (names.has(entry.toLowerCase())) continue;
        names.add(entry.toLowerCase());
        const stored = await createSectionItemFrom(auth, list.spec, patientId, parseOrThrow(list.spec.input, list.item(entry, formSource), 'body'));
        written.push({ section: q.section, ident: stored.ident });
      } else if (q.section === 'GENERAL') {
        const stored = await createSectionItemFrom(
          auth,
          GENERAL,
          patientId,
          parseOrThrow(GENERAL.input, { name: q.titleOverride, details: entry, formSource }, 'body'),
        );
        written.push({ section: q.section, ident: stored.ident });
      } else {
        social ??= await listSectionItems(auth, SOCIAL_HISTORY, patientId);
        const same = social.find((s) => s.question.trim().toLowerCase() === q.titleOverride.trim().toLowerCase());
        const stored = same
          ? await updateSocialHistory(auth, patientId, same.ident, { answers: [{ answer: entry, formSource }] })
          : await createSocialHistory(
              auth,
              patientId,
              parseOrThrow(SOCIAL_HISTORY.input, { question: q.titleOverride, answers: [{ answer: entry, formSource }], formSource }, 'body'),
            );
        if (!same) social.push(stored);
        written.push({ section: q.section, ident: stored.ident });
      }
    }
  }
  const formMappingDates = [...(data.formMappingDates ?? []), now.toISOString()];
  await writeNextVersion(auth.practiceId, note, { status: 'FULFILLED', data: { ...note.data, formMappingDates } }, now);
  await writeAudit(auth, { action: 'update', entity: 'NOTE', entityId: note.noteId, patientId });
  return { written, formMappingDates };
}

export const MAP_HEALTH_HISTORY_ROUTE = route({
  params: PatientChartParams,
  body: MapHealthHistoryBody,
  permission: 'chart.edit',
  run: ({ auth, params, body }) => mapHealthHistory(auth, params.patientId, body),
});
