import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import type { Icd10CodeRef } from '../../../../../shared/chart/fields.js';
import { filterByActive } from '../../../../../shared/chart/ordering.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import type { CodeChoice } from '../components/fields.js';
import type { SetField } from '../components/item-form.js';
import type { SectionFilter } from '../components/section-panel.js';

/** A chart item as the API lists it: the section's fields plus its ident and server-kept extras. */
export type Stored<T> = T & { ident: string; [field: string]: unknown };

export const countOf = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const ACTIVE_OPTIONS = [
  { id: 'Active', label: 'Active' },
  { id: 'Resolved', label: 'Resolved' },
] as const;

/** The Active/Resolved filter of the redesigned problem list (allergies, conditions). */
export function activeFilter<T extends { active?: boolean }>(label: string, emptyText: (value: 'Active' | 'Resolved') => string): SectionFilter<T> {
  return {
    label,
    options: ACTIVE_OPTIONS,
    initial: 'Active',
    apply: (items, value) => filterByActive(items, value as 'Active' | 'Resolved'),
    emptyText: (value) => emptyText(value as 'Active' | 'Resolved'),
  };
}

export const noResults = () => CHART_MESSAGES.noResults;

/** The Active and Pinned checkboxes of the allergy, condition and medication forms. */
export function ActivePinnedToggles<V extends { active: boolean; pinned: boolean }>({ values, set }: { values: V; set: SetField<V> }) {
  return (
    <div className="tw-chart-form__toggles">
      <Checkbox label="Active" isSelected={values.active} onChange={(x) => set('active', x as V['active'])} />
      <Checkbox label="Pinned" isSelected={values.pinned} onChange={(x) => set('pinned', x as V['pinned'])} />
    </div>
  );
}

export const codeChoice = (code: Icd10CodeRef | undefined): CodeChoice | null =>
  code?.ident && code.code ? { ident: code.ident, code: code.code, description: code.description ?? '' } : null;

export const CodeTag = ({ code }: { code: Icd10CodeRef | undefined }) =>
  code?.code ? (
    <span className="tw-chart-code" title={code.description}>
      {code.code}
    </span>
  ) : null;
