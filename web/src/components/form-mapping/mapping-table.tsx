import type { ReactNode } from 'react';
import { MAPPING_SECTION_LABELS, MAPPING_SECTIONS, titleOverrideEditable, type MappingSection } from '../../../../shared/forms/forms.js';
import { Checkbox } from '../ui/checkbox.js';
import { Select } from '../ui/select.js';
import { TextField } from '../ui/text-field.js';
import './form-mapping.css';

export interface MappingTableRow {
  id: string;
  title: string;
  enabled: boolean;
  section: MappingSection | null;
  titleOverride: string;
}

export type MappingChange = Partial<Pick<MappingTableRow, 'enabled' | 'section' | 'titleOverride'>>;

const SECTION_OPTIONS = MAPPING_SECTIONS.map((s) => ({ id: s, label: MAPPING_SECTION_LABELS[s] }));

interface MappingTableProps<R extends MappingTableRow> {
  rows: readonly R[];
  /** Per question id, from `mappingErrors`. */
  errors: Record<string, string>;
  onChange: (id: string, change: MappingChange) => void;
  'aria-label'?: string;
  addHeading: string;
  /** How a row is named in its controls' labels. */
  nameOf: (row: R) => string;
  /** A column between Add and Section. */
  extraColumn?: { heading: string; render: (row: R) => ReactNode };
}

/**
 * Spec chart-data §2, §4: each question of a form, whether it goes into the health summary, its
 * target section and, for sections that take one, its title. Choosing a section without a title clears it.
 */
export function MappingTable<R extends MappingTableRow>({ rows, errors, onChange, addHeading, nameOf, extraColumn, ...rest }: MappingTableProps<R>) {
  return (
    <div className="tw-mapping__scroll">
      <table className="tw-mapping" aria-label={rest['aria-label']}>
        <thead>
          <tr>
            <th scope="col">{addHeading}</th>
            {extraColumn ? <th scope="col">{extraColumn.heading}</th> : null}
            <th scope="col">Section</th>
            <th scope="col">Title</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>
                <Checkbox label={`Add ${nameOf(r)}`} isSelected={r.enabled} onChange={(enabled) => onChange(r.id, { enabled })} />
              </td>
              {extraColumn ? <td>{extraColumn.render(r)}</td> : null}
              <td>
                <Select
                  label={`Section for ${nameOf(r)}`}
                  options={SECTION_OPTIONS}
                  value={r.section}
                  onChange={(s) =>
                    onChange(r.id, { section: (s as MappingSection) ?? null, ...(titleOverrideEditable(s as MappingSection) ? {} : { titleOverride: '' }) })
                  }
                />
              </td>
              <td>
                <TextField
                  label={`Title for ${nameOf(r)}`}
                  isDisabled={!titleOverrideEditable(r.section)}
                  value={r.titleOverride}
                  onChange={(titleOverride) => onChange(r.id, { titleOverride })}
                  isInvalid={Boolean(errors[r.id])}
                  description={errors[r.id] && r.enabled ? errors[r.id] : undefined}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
