/** The intake-form routes of the practice group, loaded on their first request (handler.ts). */
import { FormIdParams, FormMappingBody, FormSendBody, FormsQuery, IntakeQSsoQuery, SaveFormResponsesBody } from '../../shared/forms/forms.js';
import { route } from '../lib/http/group-handler.js';
import { getFormMapping, intakeQSso, listForms, saveFormMapping, saveFormResponses, sendForm, submittedForms } from './forms.js';

export const FORM_ROUTES = {
  // Spec shell §7.7: without a query, the questionnaires; with status=submitted, a patient's submissions.
  'GET /v2/practices/forms': route({
    query: FormsQuery,
    run: ({ auth, query }) => (query.status === 'submitted' ? submittedForms(auth, query) : listForms()),
  }),
  'POST /v2/practices/forms/send': route({
    body: FormSendBody,
    permission: 'chart.edit',
    run: ({ auth, body }) => sendForm(auth, body),
  }),
  'POST /v2/practices/forms/responses': route({
    body: SaveFormResponsesBody,
    permission: 'chart.edit',
    run: ({ auth, body }) => saveFormResponses(auth, body),
  }),
  'GET /v2/practices/sso/intakeq': route({
    query: IntakeQSsoQuery,
    run: ({ query }) => intakeQSso(query.route),
  }),
  'GET /v1/practices/form-mappings/{formId}': route({
    params: FormIdParams,
    run: ({ auth, params }) => getFormMapping(auth, params.formId),
  }),
  'POST /v1/practices/form-mappings': route({
    body: FormMappingBody,
    permission: 'chart.edit',
    run: ({ auth, body }) => saveFormMapping(auth, body),
  }),
};
