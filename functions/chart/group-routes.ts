/**
 * Saving and deleting vaccine series and general-information groups, loaded with the first of them
 * (handler.ts): group saves are rare beside reading the chart's lists.
 */
import { ChartGroupParams, GeneralGroupBody, PatientChartParams, VaccineGroupBody } from '../../shared/chart/sections.js';
import * as z from '../../shared/zod.js';
import { HttpResponse, route } from '../lib/http/group-handler.js';
import { parseOrThrow } from '../core/chart/section-crud.js';
import { createGeneralGroup, deleteGeneralGroup, updateGeneralGroup } from './general-group-writes.js';
import type { GROUP_ROUTE_KEYS } from './routes.js';
import { createVaccineGroup, deleteVaccineGroup, updateVaccineGroup } from './vaccine-group-writes.js';

const P1 = '/v1/patients/{patientId}';
const NO_CONTENT = new HttpResponse(204, undefined);

function parseGroup(value: unknown) {
  return parseOrThrow(GeneralGroupBody, value);
}

export const GROUP_ROUTES = {
  [`POST ${P1}/vaccines/groups`]: route({
    params: PatientChartParams,
    body: VaccineGroupBody,
    status: 201,
    run: ({ auth, params, body }) => createVaccineGroup(auth, params.patientId, body),
  }),
  [`PUT ${P1}/vaccines/groups/{groupId}`]: route({
    params: ChartGroupParams,
    body: VaccineGroupBody,
    run: ({ auth, params, body }) => updateVaccineGroup(auth, params.patientId, params.groupId, body),
  }),
  [`DELETE ${P1}/vaccines/groups/{groupId}`]: route({
    params: ChartGroupParams,
    run: async ({ auth, params }) => {
      await deleteVaccineGroup(auth, params.patientId, params.groupId);
      return NO_CONTENT;
    },
  }),

  [`POST ${P1}/general-groups`]: route({
    params: PatientChartParams,
    body: GeneralGroupBody,
    status: 201,
    run: ({ auth, params, body }) => createGeneralGroup(auth, params.patientId, body),
  }),
  [`PUT ${P1}/general-groups/{groupId}`]: route({
    params: ChartGroupParams,
    body: z.unknown(),
    // The path gives the group its id, so the name must not be empty ("Group Name is not valid").
    run: ({ auth, params, body }) => updateGeneralGroup(auth, params.patientId, params.groupId, parseGroup({ ...(body as object), ident: params.groupId })),
  }),
  [`DELETE ${P1}/general-groups/{groupId}`]: route({
    params: ChartGroupParams,
    run: async ({ auth, params }) => {
      await deleteGeneralGroup(auth, params.patientId, params.groupId);
      return NO_CONTENT;
    },
  }),
} satisfies Record<(typeof GROUP_ROUTE_KEYS)[number], unknown>;
