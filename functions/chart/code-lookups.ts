import { cvxCodes, icd10Codes, icd10Terms, mvxCodes } from '../lib/code-sets/code-sets.js';
import { searchManufacturers, searchVaccineCodes } from '../lib/code-sets/cdc-parse.js';
import type { Icd10SearchResponse, VaccineCodeSearchResponse, VaccineManufacturerResponse } from '../../shared/chart/code-sets.js';

/** GET /v1/icd-10-codes: under 3 characters answers an empty page, not an error (spec §9). */
export async function searchIcd10(query: { keyword: string; limit: number; offset: number }): Promise<Icd10SearchResponse> {
  const [{ value, source }, index] = await Promise.all([icd10Codes(), icd10Terms()]);
  const { items, total } = value.search(query.keyword, query.limit, query.offset, await index.value);
  return { items, total, limit: query.limit, offset: query.offset, source };
}

export async function searchCvx(query: { keyword: string; includeInactive?: string; limit: number }): Promise<VaccineCodeSearchResponse> {
  const { value, source } = await cvxCodes();
  const all = searchVaccineCodes(value, query.keyword, query.includeInactive === 'true');
  return { items: all.slice(0, query.limit), total: all.length, source };
}

export async function listMvx(query: { keyword: string; includeInactive?: string; limit: number }): Promise<VaccineManufacturerResponse> {
  const { value, source } = await mvxCodes();
  const all = searchManufacturers(value, query.keyword, query.includeInactive === 'true');
  return { items: all.slice(0, query.limit), total: all.length, source };
}
