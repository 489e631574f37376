/** Templates are managed and expanded far less often than notes are read and saved: these load with their first request (template-routes.ts). */
export const TEMPLATE_ROUTE_KEYS = [
  'GET /v1/practices/templates',
  'POST /v1/practices/templates',
  'GET /v1/practices/templates/{templateId}',
  'PUT /v1/practices/templates/{templateId}',
  'DELETE /v1/practices/templates/{templateId}',
  'POST /v1/template-links',
  'POST /v1/templates/{templateId}/expand',
  'POST /v1/templates/expand-shortcut',
] as const;
export type TemplateRouteKey = (typeof TEMPLATE_ROUTE_KEYS)[number];

/** Lab orders, trends and reports: rare beside writing notes, so they load with their first request (lab-routes.ts). */
export const LAB_ROUTE_KEYS = [
  'POST /v1/notes/{noteId}/lab-order',
  'GET /v1/notes/labs/print',
  'GET /v2/notes/labs/link/{a}/{b}',
  // Results to review (issue 40): under /v1/notes so they fold into the group's greedy keys (no new API resource).
  'GET /v1/notes/labs/reviews',
  'GET /v1/notes/labs/reviews/{noteId}',
  'POST /v1/notes/labs/reviews/{noteId}',
  'GET /v1/notes/labs/review-settings',
  'POST /v1/notes/labs/review-settings',
] as const;
export type LabRouteKey = (typeof LAB_ROUTE_KEYS)[number];

export const NOTE_ROUTES = [
  'POST /v2/notes',
  'GET /v2/notes',
  'GET /v1/notes',
  'GET /v1/notes/{noteId}',
  'POST /v1/notes/{noteId}',
  'DELETE /v1/notes/{noteId}',
  'POST /v1/notes/{noteId}/sign',
  'POST /v1/notes/{noteId}/update-signed-note',
  'POST /v1/notes/{noteId}/addend',
  'POST /v1/notes/{noteId}/change-patient',
  'POST /v1/notes/{noteId}/toggle-access',
  'POST /v1/notes/{noteId}/send',
  'POST /v1/notes/{noteId}/assign',
  'POST /v1/notes/{noteId}/restore',
  'GET /v1/notes/{noteId}/prescription-pdf',
  'GET /v1/notes/faxes',
  ...TEMPLATE_ROUTE_KEYS,
  ...LAB_ROUTE_KEYS,
] as const;
export type NoteRouteKey = (typeof NOTE_ROUTES)[number];

/**
 * Deliveries signed by a partner or outside system (HMAC, README "Partner apps") instead of a user's
 * token: registered without the JWT authorizer, verified by the handler before anything is parsed.
 */
export const PARTNER_DELIVERY_ROUTES = [
  'POST /v1/partner-deliveries/{partnerId}/results',
  'POST /v1/partner-deliveries/{partnerId}/notes',
  'POST /v1/partner-deliveries/{partnerId}/intakes',
  'POST /v1/partner-deliveries/{partnerId}/faxes',
  'POST /v1/partner-deliveries/{partnerId}/calls',
] as const;
export type PartnerDeliveryRouteKey = (typeof PARTNER_DELIVERY_ROUTES)[number];
