/**
 * The endpoint groups: one Lambda each. The CDK stack and the local API both read this list,
 * so a route exists in both places or in neither. Each group's routes.ts holds only route keys
 * (no handler code), so the stack can read them without loading handlers.
 */
import { AI_ROUTES } from './ai/routes.js';
import { FILE_ROUTES } from './files/routes.js';
import { NOTIFICATION_ROUTES } from './notifications/routes.js';
import { NOTE_ROUTES, PARTNER_DELIVERY_ROUTES } from './notes/routes.js';
import { CHART_ROUTES } from './chart/routes.js';
import { INVENTORY_ROUTES } from './inventory/routes.js';
import { MESSAGING_ROUTES } from './messaging/routes.js';
import { PATIENT_ROUTES } from './patients/routes.js';
import { CALENDAR_FEED_ROUTES, PRACTICE_ROUTES } from './practice/routes.js';

/**
 * AWS resources a group uses beyond the table. The stack grants (and passes the environment of)
 * only what a group declares here, so a new use must be declared to work in AWS.
 * files: FILES_BUCKET read/write (no group publishes notifications: the stream worker announces every write);
 * scheduler: SCHEDULER_* + create/delete/get schedules; transcription: TRANSCRIPTION_STATE_MACHINE_ARN + start/describe;
 * email: EMAIL_* + ses:SendEmail on the practice's sender identity (practices/<slug>.json `email`);
 * identity: USER_POOL_ID + the cognito-idp admin actions an admin's user change needs, on this pool only;
 * sms: SMS_TRANSPORT/SMS_CONFIGURATION_SET + sms-voice:SendTextMessage/SendMediaMessage (practices/<slug>.json `sms`);
 * model: AI_MODEL_ID/AI_REGION + bedrock:InvokeModel(WithResponseStream) on the practice's model (practices/<slug>.json `ai`);
 * stream-url: a function URL in RESPONSE_STREAM mode (COGNITO_ISSUER/USER_POOL_CLIENT_ID to verify tokens itself);
 * partnerOrigins: PARTNER_ORIGINS, the origins the web's CSP lets frame (practices/<slug>.json `partnerOrigins`, `partnerApps`);
 * partnerSecrets: PARTNER_SECRETS_ARN + secretsmanager:GetSecretValue on the practice's one partner secret;
 * labs: HEALTH_GORILLA_* (practices/<slug>.json `labs`; its secrets are partner secrets), no new resource;
 * telephony: TELEPHONY_* (practices/<slug>.json `telephony`, Twilio; its auth token is a partner secret), no new resource;
 * fax: FAX_* (practices/<slug>.json `fax`, Sinch; its key is a partner secret), no new resource;
 * fhirExport: FHIR_EXPORT_STATE_MACHINE_ARN + start/describe of the practice export's state machine, files bucket read (its links).
 */
export type GroupAccess =
  | 'files'
  | 'scheduler'
  | 'transcription'
  | 'email'
  | 'identity'
  | 'sms'
  | 'model'
  | 'stream-url'
  | 'partnerOrigins'
  | 'partnerSecrets'
  | 'labs'
  | 'telephony'
  | 'fax'
  | 'fhirExport';

export interface GroupDefinition {
  name: string;
  /** Handler module, relative to the repository root; exports `handler`. */
  entry: string;
  routes: readonly string[];
  memoryMb?: number;
  timeoutSeconds?: number;
  access?: readonly GroupAccess[];
  /** Routes a partner signs (HMAC) instead of a user's token: registered without the JWT authorizer, exact, on the same function. */
  signedRoutes?: readonly string[];
}

export const GROUPS: GroupDefinition[] = [
  { name: 'patients', entry: 'functions/patients/handler.ts', routes: PATIENT_ROUTES, access: ['email'] },
  {
    name: 'practice',
    entry: 'functions/practice/handler.ts',
    routes: PRACTICE_ROUTES,
    access: ['identity', 'partnerOrigins', 'partnerSecrets', 'sms', 'scheduler', 'telephony', 'fhirExport'],
    signedRoutes: CALENDAR_FEED_ROUTES,
  },
  // scheduler, partnerSecrets: a FHIR import books appointments through the calendar, which schedules
  // their reminder texts and writes them to the provider's Google Calendar (its OAuth client is a partner secret).
  { name: 'chart', entry: 'functions/chart/handler.ts', routes: CHART_ROUTES, access: ['files', 'scheduler', 'partnerSecrets'] },
  { name: 'inventory', entry: 'functions/inventory/handler.ts', routes: INVENTORY_ROUTES, access: ['files'] },
  { name: 'files', entry: 'functions/files/handler.ts', routes: FILE_ROUTES, access: ['files', 'partnerSecrets', 'fax'] },
  {
    name: 'notes',
    entry: 'functions/notes/handler.ts',
    routes: NOTE_ROUTES,
    access: ['files', 'email', 'partnerSecrets', 'labs', 'telephony', 'scheduler'],
    signedRoutes: PARTNER_DELIVERY_ROUTES,
  },
  { name: 'notifications', entry: 'functions/notifications/handler.ts', routes: NOTIFICATION_ROUTES, access: ['scheduler'] },
  { name: 'messaging', entry: 'functions/messaging/handler.ts', routes: MESSAGING_ROUTES, access: ['files', 'scheduler', 'sms'] },
  // A streamed reply can outlast API Gateway's 30 s; the function URL allows the function's own timeout.
  { name: 'ai', entry: 'functions/ai/handler.ts', routes: AI_ROUTES, timeoutSeconds: 120, access: ['files', 'transcription', 'model', 'stream-url'] },
];
