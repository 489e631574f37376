import type { Icd10CodeRef } from '../../../shared/chart/fields.js';
import { icd10Codes } from '../../lib/code-sets/code-sets.js';
import { dottedIcd10 } from '../../lib/code-sets/icd10-parse.js';

/**
 * Items store the code's ident (icd10CodeId) and a copy of the code for display. The copy comes
 * from the loaded code set when it knows the ident; otherwise the client's copy (or the dotted
 * ident) is kept, so an item saved against a newer release still shows its code.
 */
export async function resolveIcd10(input: { icd10CodeId?: string; icd10Code?: Icd10CodeRef }) {
  const ident = (input.icd10CodeId || input.icd10Code?.ident || '').replace(/\./g, '').toUpperCase();
  if (!ident) return { icd10CodeId: undefined, icd10Code: undefined };
  const found = (await icd10Codes()).value.get(ident);
  const icd10Code: Icd10CodeRef = found ?? { ident, code: input.icd10Code?.code || dottedIcd10(ident), description: input.icd10Code?.description ?? '' };
  return { icd10CodeId: ident, icd10Code };
}
