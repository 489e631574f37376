import { PartnerAppsUpdate } from '../../shared/partners/partner-schema.js';
import { route } from '../lib/http/group-handler.js';
import { partnerAppList, replacePartnerApps } from './partner-apps.js';

/** Every role reads the list at start; admins manage it in settings. */
export const PARTNER_APP_ROUTES = {
  'GET /v1/practices/partner-apps': route({
    run: ({ auth }) => partnerAppList(auth),
  }),
  'PUT /v1/practices/partner-apps': route({
    body: PartnerAppsUpdate,
    permission: 'practice.settings.change',
    run: ({ auth, body }) => replacePartnerApps(auth, body),
  }),
} as const;
