/** The template routes of the notes group, loaded on their first request (handler.ts). */
import {
  ExpandShortcutBody,
  ExpandTemplateBody,
  TemplateIdParams,
  TemplateInput,
  TemplateLinkBody,
  TemplateListQuery,
} from '../../shared/templates/template-schema.js';
import { route } from '../lib/http/group-handler.js';
import { expandShortcut, expandTemplate } from './expand-template.js';
import type { TemplateRouteKey } from './routes.js';
import { createTemplate, linkTemplate, listPracticeTemplates, removeTemplate, requireVisibleTemplate, updateTemplate } from './templates.js';

export const TEMPLATE_ROUTES = {
  'GET /v1/practices/templates': route({ query: TemplateListQuery, run: ({ auth, query }) => listPracticeTemplates(auth, query) }),
  'POST /v1/practices/templates': route({ body: TemplateInput, status: 201, run: ({ auth, body }) => createTemplate(auth, body) }),
  'GET /v1/practices/templates/{templateId}': route({
    params: TemplateIdParams,
    run: ({ auth, params }) => requireVisibleTemplate(auth, params.templateId),
  }),
  'PUT /v1/practices/templates/{templateId}': route({
    params: TemplateIdParams,
    body: TemplateInput,
    run: ({ auth, params, body }) => updateTemplate(auth, params.templateId, body),
  }),
  'DELETE /v1/practices/templates/{templateId}': route({
    params: TemplateIdParams,
    run: ({ auth, params }) => removeTemplate(auth, params.templateId),
  }),
  'POST /v1/template-links': route({ body: TemplateLinkBody, status: 201, run: ({ auth, body }) => linkTemplate(auth, body) }),
  'POST /v1/templates/{templateId}/expand': route({
    params: TemplateIdParams,
    body: ExpandTemplateBody,
    run: ({ auth, params, body }) => expandTemplate(auth, params.templateId, body),
  }),
  'POST /v1/templates/expand-shortcut': route({ body: ExpandShortcutBody, run: ({ auth, body }) => expandShortcut(auth, body) }),
} satisfies Record<TemplateRouteKey, unknown>;
