import type { FormMappingQuestion, FormSummary, SavedFormMapping } from '../../../../../shared/forms/forms.js';
import { FormSummaryList, IntakeQSsoLink, SavedFormMappingAnswer } from '../../../../../shared/forms/forms-responses.js';
import { apiRequest } from '../../../lib/api-client.js';

/** The practice's IntakeQ questionnaires. */
export function fetchForms(signal?: AbortSignal): Promise<FormSummary[]> {
  return apiRequest({ path: '/v2/practices/forms', signal }, FormSummaryList);
}

/** A signed-in link into IntakeQ's own app. */
export function fetchIntakeqSso(signal?: AbortSignal): Promise<{ ssoUrl: string }> {
  return apiRequest({ path: '/v2/practices/sso/intakeq', signal }, IntakeQSsoLink);
}

export function fetchFormMapping(formId: string, signal?: AbortSignal): Promise<SavedFormMapping> {
  return apiRequest({ path: `/v1/practices/form-mappings/${encodeURIComponent(formId)}`, signal }, SavedFormMappingAnswer);
}

export function saveFormMapping(formId: string, questions: FormMappingQuestion[]): Promise<SavedFormMapping> {
  return apiRequest({ method: 'POST', path: '/v1/practices/form-mappings', body: { formId, questions } }, SavedFormMappingAnswer);
}
