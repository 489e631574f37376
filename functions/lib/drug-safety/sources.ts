import { codeSetCache } from '../code-sets/code-set-store.js';
import { starterSource } from '../code-sets/code-sets.js';
import { DrugKnowledge, type DdiPair, type DdiPayload, type DrugClassPayload } from './drug-knowledge.js';

/*
 * The two data sets of the allergy and interaction checks, each the imported release when there is
 * one, else the built-in extract. This module loads with the first check or allergen search.
 */
/** Ingredients and their FDA classes for the allergy checks (drug-safety/drug-knowledge.ts loads with the first check). */
export const drugClassCodes = codeSetCache<DrugClassPayload, DrugKnowledge>(
  'drugclass',
  (p) => new DrugKnowledge(p),
  async () => {
    const { DRUG_CLASS_STARTER, BRAND_STARTER, DRUG_CLASS_STARTER_DATE } = await import('../code-sets/drug-class-starter.js');
    const value = new DrugKnowledge({ ingredients: DRUG_CLASS_STARTER.map(([n, c]) => [n, [...c]]), brands: BRAND_STARTER.map(([b, i]) => [b, [...i]]) });
    return {
      value,
      source: { ...starterSource('Built-in extract of FDA NDC directory pharmacologic classes', value.ingredientCount), releaseDate: DRUG_CLASS_STARTER_DATE },
    };
  },
);

/** The interaction list: the built-in ONC high-priority list until another is imported. */
export const ddiCodes = codeSetCache<DdiPayload, DdiPair[]>(
  'ddi',
  (p) => p.pairs,
  async () => {
    const { ONC_DDI, ONC_DDI_LABEL, ONC_DDI_DATE } = await import('../code-sets/onc-ddi.js');
    return { value: [...ONC_DDI], source: { ...starterSource(ONC_DDI_LABEL, ONC_DDI.length), releaseDate: ONC_DDI_DATE } };
  },
);
