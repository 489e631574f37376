import type { FormMappingQuestion, FormSummary, SavedFormMapping } from '../../../../../shared/forms/forms.js';
import { apiRequest } from '../../../lib/api-client.js';

/** The practice's IntakeQ questionnaires. */
export function fetchForms(signal?: AbortSignal): Promise<FormSummary[]> {
  return apiRequest<FormSummary[]>({ path: '/v2/practices/forms', signal });
}

/** A signed-in link into IntakeQ's own app. */
export function fetchIntakeqSso(signal?: AbortSignal): Promise<{ ssoUrl: string }> {
  return apiRequest<{ ssoUrl: string }>({ path: '/v2/practices/sso/intakeq', signal });
}

export function fetchFormMapping(formId: string, signal?: AbortSignal): Promise<SavedFormMapping> {
  return apiRequest<SavedFormMapping>({ path: `/v1/practices/form-mappings/${encodeURIComponent(formId)}`, signal });
}

export function saveFormMapping(formId: string, questions: FormMappingQuestion[]): Promise<SavedFormMapping> {
  return apiRequest<SavedFormMapping>({ method: 'POST', path: '/v1/practices/form-mappings', body: { formId, questions } });
}
