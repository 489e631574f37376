import { formDataOf } from '../../data/forms/form-note-data.js';
import { clean, fhirInstant, identifierSystem, sourceIdentifier, stableUuid } from './fhir-core.js';
import type { ChartMapper } from './model.js';

export const FORM_NAME_EXTENSION = 'https://tidewell.app/fhir/StructureDefinition/form-name';

/**
 * Submitted intake forms: one QuestionnaireResponse each, the patient its author and source, one
 * item per question with the answer as the patient gave it. A form sent but not yet submitted has
 * no answers and is only its DocumentReference.
 */
export const questionnaireResponses: ChartMapper = {
  kind: 'form',
  map: (src, ctx) =>
    src.notes
      .filter((n) => n.noteType === 'FORM' && n.data.submissionData)
      .map((n) => {
        const d = formDataOf(n);
        const submission = d.submissionData!;
        return clean({
          resourceType: 'QuestionnaireResponse',
          id: stableUuid('QuestionnaireResponse', src.practiceId, n.noteId),
          // The R4 schema has no display on a canonical (_questionnaire): the form's name is an extension.
          extension: d.formName ? [{ url: FORM_NAME_EXTENSION, valueString: d.formName }] : undefined,
          identifier: sourceIdentifier(src.practiceId, 'form', n.noteId),
          // The form as the practice's form vendor names it: a canonical of Tidewell's, with its name.
          // A response brought in from another record keeps the canonical it came with.
          questionnaire:
            d.questionnaire ?? `${identifierSystem(src.practiceId, 'questionnaire')}/${encodeURIComponent(d.formId || submission.QuestionnaireId || 'form')}`,
          status: 'completed',
          subject: ctx.patientRef,
          authored: fhirInstant(submission.DateSubmitted ?? d.dateSubmitted ?? n.eventTimestamp),
          author: ctx.patientRef,
          source: ctx.patientRef,
          item: (submission.Questions ?? []).map((q, i) =>
            clean({
              linkId: q.Id || `q${i + 1}`,
              text: q.Text || undefined,
              answer: q.Answer ? [{ valueString: q.Answer }] : undefined,
            }),
          ),
        });
      }),
};
