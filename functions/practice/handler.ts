import { resolveFeatureFlags } from '../../shared/constants/feature-flags.js';
import {
  DashboardLayout,
  FeatureGatesUpdate,
  PracticeMetadataUpdate,
  PracticeUserParams,
  PracticeUserUpdate,
  SETTINGS_MESSAGES,
  SUPER_USER_NAME,
  UserIdParams,
} from '../../shared/practice/settings-schema.js';
import { recordSignOut } from '../lib/auth/access-record.js';
import { NotFoundError } from '../lib/errors.js';
import type { Context } from 'aws-lambda';
import { groupHandler, HttpResponse, lazyRoute, lazyRoutes, route, type HttpEvent } from '../lib/http/group-handler.js';
import { PARTNER_APP_ROUTE_KEYS } from './partner-app-route-keys.js';
import { getPractice } from '../data/practices/practice-repository.js';
import {
  CALENDAR_FEED_ROUTES,
  CALENDAR_ROUTE_KEYS,
  CALL_ROUTE_KEYS,
  CONTACT_ROUTE_KEYS,
  DOSESPOT_ROUTE_KEYS,
  FHIR_BULK_ROUTE_KEYS,
  FHIR_PRACTICE_IMPORT_ROUTE_KEYS,
  FORM_ROUTE_KEYS,
  PRACTICE_ROUTES,
} from './routes.js';
import { getDashboard, putDashboard, updateFeatureGates, resetUserMfa, updatePracticeMetadata, updatePracticeUser } from './settings.js';
import { getUser, listUsers, type CurrentUser } from '../data/users/user-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';

async function practiceOf(practiceId: string) {
  const practice = await getPractice(practiceId);
  if (!practice) throw new NotFoundError('Practice not found');
  return practice;
}

/**
 * Spec shell §4/§6: a super user without a User record in this practice acts as admin named
 * 'Super User'; nothing is written for them, so they never appear in the practice's team.
 */
async function currentUser(auth: AuthContext): Promise<CurrentUser> {
  const user = await getUser(auth.practiceId, auth.userId);
  if (user) return { ...user, superUser: auth.superUser === true };
  if (!auth.superUser) throw new NotFoundError(SETTINGS_MESSAGES.userNotFound);
  return {
    userId: auth.userId,
    firstName: 'Super',
    lastName: 'User',
    name: SUPER_USER_NAME,
    emailAddress: auth.email,
    cellNumber: null,
    userStatus: 'active',
    educationDegree: null,
    npiNumber: null,
    permissionGroup: 'admin',
    createdAt: '',
    veradigmUserType: null,
    doseSpotUserId: null,
    superUser: true,
  };
}

const userRoutes = groupHandler(PRACTICE_ROUTES, {
  'GET /v1/practices/metadata': route({
    run: ({ auth }) => practiceOf(auth.practiceId),
  }),
  'GET /v1/practices/users/me': route({
    run: ({ auth }) => currentUser(auth),
  }),
  'GET /v1/practices/users': route({
    run: ({ auth }) => listUsers(auth.practiceId),
  }),
  'GET /v1/practices/feature-gates': route({
    run: async ({ auth }) => ({ flags: resolveFeatureFlags((await practiceOf(auth.practiceId)).featureFlags) }),
  }),
  'PUT /v1/practices/metadata': route({
    body: PracticeMetadataUpdate,
    permission: 'practice.settings.change',
    run: ({ auth, body }) => updatePracticeMetadata(auth, body),
  }),
  'PUT /v1/practices/users/{userId}': route({
    params: UserIdParams,
    body: PracticeUserUpdate,
    permission: 'practice.settings.change',
    run: ({ auth, params, body }) => updatePracticeUser(auth, params.userId, body),
  }),
  'DELETE /v1/practices/users/{userId}/mfa': route({
    params: UserIdParams,
    permission: 'practice.settings.change',
    run: async ({ auth, params }) => {
      await resetUserMfa(auth, params.userId);
      return new HttpResponse(204, undefined);
    },
  }),
  'GET /v1/practices/{practiceId}/users/{userId}': route({
    params: PracticeUserParams,
    run: async ({ auth, params }) => {
      // Another practice's users are not visible here, whatever the path says.
      const user = params.practiceId === auth.practiceId ? await getUser(auth.practiceId, params.userId) : null;
      if (!user) throw new NotFoundError(SETTINGS_MESSAGES.userNotFound);
      return user;
    },
  }),
  'PUT /v1/practices/feature-gates': route({
    body: FeatureGatesUpdate,
    permission: 'practice.settings.change',
    run: ({ auth, body }) => updateFeatureGates(auth, body),
  }),
  'GET /v1/practices/users/me/dashboard': route({
    run: ({ auth }) => getDashboard(auth),
  }),
  'PUT /v1/practices/users/me/dashboard': route({
    body: DashboardLayout,
    run: ({ auth, body }) => putDashboard(auth, body),
  }),
  // Logout ends every token the user holds now (an ID token copied elsewhere too), deployed and locally.
  'POST /v1/practices/users/me/sign-out': route({
    run: async ({ auth }) => {
      await recordSignOut(auth.practiceId, auth.userId);
      return new HttpResponse(204, undefined);
    },
  }),
  // Spec shell §7.7 emr/partner_apps: read once per page load, so its schemas load with that first request.
  ...lazyRoutes(PARTNER_APP_ROUTE_KEYS, () => import('./partner-app-routes.js').then((m) => m.PARTNER_APP_ROUTES)),
  ...lazyRoutes(DOSESPOT_ROUTE_KEYS, () => import('./dosespot-routes.js').then((m) => m.DOSESPOT_ROUTES)),
  ...lazyRoutes(CALENDAR_ROUTE_KEYS, () => import('./calendar-routes.js').then((m) => m.CALENDAR_ROUTES)),
  ...(Object.fromEntries(FORM_ROUTE_KEYS.map((key) => [key, lazyRoute(() => import('./forms-routes.js').then((m) => m.FORM_ROUTES[key]))])) as Record<
    (typeof FORM_ROUTE_KEYS)[number],
    ReturnType<typeof lazyRoute>
  >),
  ...lazyRoutes(CONTACT_ROUTE_KEYS, () => import('./contact-routes.js').then((m) => m.CONTACT_ROUTES)),
  ...lazyRoutes(CALL_ROUTE_KEYS, () => import('./call-routes.js').then((m) => m.CALL_ROUTES)),
  ...lazyRoutes(FHIR_BULK_ROUTE_KEYS, () => import('./fhir-bulk-routes.js').then((m) => m.FHIR_BULK_ROUTES)),
  ...lazyRoutes(FHIR_PRACTICE_IMPORT_ROUTE_KEYS, () => import('./fhir-import-routes.js').then((m) => m.FHIR_PRACTICE_IMPORT_ROUTES)),
});

/** A calendar feed's request carries no user token (its URL's token is the credential): its code loads on the first one. */
const FEED_ROUTE = CALENDAR_FEED_ROUTES[0];
export async function handler(event: HttpEvent, context: Context) {
  if (event.routeKey === FEED_ROUTE || event.routeKey?.startsWith('GET /v1/calendar-feeds/')) {
    const { handleFeed } = await import('./calendar-feed.js');
    return handleFeed(event, context);
  }
  return userRoutes(event, context);
}
