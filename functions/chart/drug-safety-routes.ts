/** Allergen search and the allergy and interaction checks: loaded with their first request (handler.ts). */
import {
  AllergenSearchQuery,
  DRUG_SAFETY_MESSAGES,
  DrugSafetyCheckBody,
  type AllergenSearchResponse,
  type DrugSafetySources,
} from '../../shared/chart/drug-safety.js';
import { EPrescribeReviewConfirmBody } from '../../shared/chart/eprescribe-review.js';
import { PatientChartParams } from '../../shared/chart/sections.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { route } from '../lib/http/group-handler.js';
import { drugSafetyWarnings } from '../lib/drug-safety/check.js';
import { ddiCodes, drugClassCodes } from '../lib/drug-safety/sources.js';
import { getInventoryItem } from '../data/inventory/inventory-repository.js';
import { drugOfItem } from '../core/notes/rx-drug.js';
import { assertPatientExists } from '../data/chart/chart-repository.js';
import { confirmEPrescribeReview, getEPrescribeReview } from './eprescribe-review.js';

export const DRUG_SAFETY_ROUTES = {
  'GET /v1/allergens': route({
    query: AllergenSearchQuery,
    run: async ({ query }): Promise<AllergenSearchResponse> => {
      const { value, source } = await drugClassCodes();
      return { items: value.searchAllergens(query.keyword), source };
    },
  }),
  'GET /v1/drug-safety-sources': route({
    run: async (): Promise<DrugSafetySources> => {
      const [classes, interactions] = await Promise.all([drugClassCodes(), ddiCodes()]);
      return { classes: classes.source, interactions: interactions.source };
    },
  }),
  // The check a window runs when a drug is chosen; signing runs it again and needs a reason for what it finds.
  'POST /v1/patients/{patientId}/drug-safety-check': route({
    params: PatientChartParams,
    body: DrugSafetyCheckBody,
    run: async ({ auth, params, body }) => {
      await assertPatientExists(auth.practiceId, params.patientId);
      let drug: { label: string; names: string };
      if (body.inventoryId) {
        const item = await getInventoryItem(auth.practiceId, body.inventoryId);
        if (!item) throw new NotFoundError(DRUG_SAFETY_MESSAGES.unknownInventory);
        drug = drugOfItem(item);
      } else if (body.drugName) drug = { label: body.drugName, names: body.drugName };
      else throw new ValidationError(DRUG_SAFETY_MESSAGES.oneDrug, { inventoryId: DRUG_SAFETY_MESSAGES.oneDrug });
      const result = await drugSafetyWarnings(auth.practiceId, params.patientId, drug);
      await writeAudit(auth, { action: 'read', entity: 'DRUG_SAFETY_CHECK', patientId: params.patientId, count: result.warnings.length });
      return result;
    },
  }),
  // Before e-prescribing: the active allergies and medications DoseSpot's window does not show, and their confirmation.
  'GET /v1/patients/{patientId}/eprescribe-review': route({
    params: PatientChartParams,
    run: ({ auth, params }) => getEPrescribeReview(auth, params.patientId),
  }),
  'POST /v1/patients/{patientId}/eprescribe-review': route({
    params: PatientChartParams,
    body: EPrescribeReviewConfirmBody,
    run: ({ auth, params, body }) => confirmEPrescribeReview(auth, params.patientId, body),
  }),
};
