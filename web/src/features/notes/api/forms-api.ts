import type {
  FormSummary,
  MapHealthHistoryBody,
  MapHealthHistoryResult,
  FormMappingBody,
  SavedFormMapping,
  SavedFormResponses,
  SaveFormResponsesBody,
  SendMethod,
} from '../../../../../shared/forms/forms.js';
import { Note } from '../../../../../shared/notes/note-schema.js';
import {
  FormSummaryList,
  IntakeQSsoLink,
  MapHealthHistoryAnswer,
  SavedFormMappingAnswer,
  SavedFormResponsesAnswer,
} from '../../../../../shared/forms/forms-responses.js';
import { apiRequest } from '../../../lib/api-client.js';

export const formKeys = {
  list: () => ['forms', 'list'] as const,
  mapping: (formId: string) => ['forms', 'mapping', formId] as const,
};

export function fetchForms(signal?: AbortSignal): Promise<FormSummary[]> {
  return apiRequest({ path: '/v2/practices/forms', signal }, FormSummaryList);
}

export async function sendForm(body: {
  noteId: string;
  patientId: string;
  formId: string;
  sendMethod: SendMethod;
  email?: string;
  phoneNumber?: string;
}): Promise<Note> {
  return await apiRequest({ method: 'POST', path: '/v2/practices/forms/send', body }, Note);
}

export async function resendForm(intakeId: string): Promise<Note> {
  return await apiRequest({ method: 'POST', path: '/v2/practices/forms/send', body: { intakeId } }, Note);
}

export function fetchFormMapping(formId: string, signal?: AbortSignal): Promise<SavedFormMapping> {
  return apiRequest({ path: `/v1/practices/form-mappings/${encodeURIComponent(formId)}`, signal }, SavedFormMappingAnswer);
}

export function saveFormMapping(body: FormMappingBody): Promise<SavedFormMapping> {
  return apiRequest({ method: 'POST', path: '/v1/practices/form-mappings', body }, SavedFormMappingAnswer);
}

export function saveFormResponses(body: SaveFormResponsesBody): Promise<SavedFormResponses> {
  return apiRequest({ method: 'POST', path: '/v2/practices/forms/responses', body }, SavedFormResponsesAnswer);
}

export function mapHealthHistory(patientId: string, body: MapHealthHistoryBody): Promise<MapHealthHistoryResult> {
  return apiRequest({ method: 'POST', path: `/v2/patients/${encodeURIComponent(patientId)}/map-health-history`, body }, MapHealthHistoryAnswer);
}

export function intakeQSso(route?: string): Promise<{ ssoUrl: string }> {
  return apiRequest({ path: '/v2/practices/sso/intakeq', query: route ? { route } : undefined }, IntakeQSsoLink);
}
