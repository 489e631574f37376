import { useState, type ReactNode } from 'react';
import { ComboBox, FieldError, Input, Label, ListBox, ListBoxItem, Popover, Text, TextArea, TextField as AriaTextField, type Key } from 'react-aria-components';
import { Spinner } from '../../../components/ui/spinner.js';
import { TextField } from '../../../components/ui/text-field.js';
import type { DrugProduct, Icd10Code, VaccineCode } from '../../../../../shared/chart/code-sets.js';
import { ALLERGEN_KIND_LABELS, type AllergenRef } from '../../../../../shared/chart/drug-safety.js';
import { starterNotice, useAllergenSearch, useDrugSearch, useIcd10Search, useVaccineCodeSearch } from '../api/code-search.js';

export function TextAreaField({ label, name, value, onChange }: { label: string; name: string; value: string; onChange: (value: string) => void }) {
  return (
    <AriaTextField name={name} value={value} onChange={onChange} className="tw-field">
      <Label className="tw-field__label">{label}</Label>
      <TextArea className="tw-field__input tw-chart-textarea" rows={3} />
      <FieldError className="tw-field__error" />
    </AriaTextField>
  );
}

/** Dates are typed as the spec shows them (MM/DD/YYYY, conditions MM/YYYY); the shared schema checks them. */
export function DateField({
  label,
  name,
  value,
  onChange,
  month = false,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  month?: boolean;
}) {
  return (
    <TextField
      label={label}
      name={name}
      value={value}
      onChange={onChange}
      placeholder={month ? 'MM/YYYY' : 'MM/DD/YYYY'}
      inputMode="numeric"
      className="tw-chart-date"
    />
  );
}

export function FieldRow({ children }: { children: ReactNode }) {
  return <div className="tw-chart-form__row">{children}</div>;
}

export interface CodeChoice {
  ident: string;
  code: string;
  description: string;
}

interface CodeSearchPartsProps<T extends object> {
  label: string;
  isRequired?: boolean;
  placeholder: string;
  busyLabel: string;
  isFetching: boolean;
  description?: ReactNode;
  autoFocus?: boolean;
  children: (item: T) => ReactNode;
}

/** What every code-set picker shows inside its ComboBox: label, input with a busy spinner, help text, error, options. */
function CodeSearchParts<T extends object>({
  label,
  isRequired,
  placeholder,
  busyLabel,
  isFetching,
  description,
  autoFocus,
  children,
}: CodeSearchPartsProps<T>) {
  return (
    <>
      <Label className="tw-field__label">
        {label}
        {isRequired ? (
          <span className="tw-field__required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </Label>
      <div className="tw-chart-combobox">
        <Input className="tw-field__input" placeholder={placeholder} autoFocus={autoFocus} />
        {isFetching ? (
          <span className="tw-chart-combobox__busy">
            <Spinner label={busyLabel} />
          </span>
        ) : null}
      </div>
      {description ? (
        <Text slot="description" className="tw-field__description">
          {description}
        </Text>
      ) : null}
      <FieldError className="tw-field__error" />
      <Popover className="tw-popover tw-chart-code-popover">
        <ListBox<T> className="tw-listbox" renderEmptyState={() => <p className="tw-chart-code-empty">{isFetching ? 'Searching…' : 'No results found.'}</p>}>
          {children}
        </ListBox>
      </Popover>
    </>
  );
}

/** ICD-10 search: from 3 characters, debounced 500 ms, code and description in each option. */
export function Icd10Field({
  label = 'ICD-10 code',
  name,
  value,
  onChange,
}: {
  label?: string;
  name: string;
  value: CodeChoice | null;
  onChange: (value: CodeChoice | null) => void;
}) {
  const [text, setText] = useState(value ? `${value.code} ${value.description}`.trim() : '');
  const { codes, source, isFetching } = useIcd10Search(value && text === `${value.code} ${value.description}`.trim() ? '' : text);
  const items: Icd10Code[] = value && !codes.some((c) => c.ident === value.ident) ? [value, ...codes] : codes;
  return (
    <ComboBox
      name={name}
      className="tw-field"
      items={items}
      inputValue={text}
      onInputChange={(next) => {
        setText(next);
        if (!next.trim()) onChange(null);
      }}
      selectedKey={value?.ident ?? null}
      onSelectionChange={(key: Key | null) => {
        const chosen = items.find((c) => c.ident === key) ?? null;
        onChange(chosen);
        if (chosen) setText(`${chosen.code} ${chosen.description}`.trim());
      }}
      menuTrigger="input"
      allowsEmptyCollection
      allowsCustomValue
    >
      <CodeSearchParts<Icd10Code>
        label={label}
        placeholder="Search by code or description"
        busyLabel="Searching codes"
        isFetching={isFetching}
        description={`Type at least 3 characters.${starterNotice('icd10', source) ? ` ${starterNotice('icd10', source)}` : ''}`}
      >
        {(code) => (
          <ListBoxItem id={code.ident} textValue={`${code.code} ${code.description}`} className="tw-listbox__item tw-chart-code-option">
            <span className="tw-chart-code">{code.code}</span>
            <span className="tw-chart-code-option__text">{code.description}</span>
          </ListBoxItem>
        )}
      </CodeSearchParts>
    </ComboBox>
  );
}

const allergenText = (a: AllergenRef) => `${a.name} (${ALLERGEN_KIND_LABELS[a.kind].toLowerCase()})`;

/**
 * What causes an allergy, for the allergy and interaction checks: a drug class, an ingredient or a
 * substance that is not a drug, found by name or everyday name ("sulfa", "penicillin", "latex").
 */
export function AllergenField({ value, onChange }: { value: AllergenRef | null; onChange: (value: AllergenRef | null) => void }) {
  const [text, setText] = useState(value ? allergenText(value) : '');
  const { allergens, isFetching } = useAllergenSearch(value && text === allergenText(value) ? '' : text);
  const items = allergens.map((a) => ({ ...a, id: `${a.kind}:${a.name}` }));
  const withChosen = value && !items.some((a) => a.id === `${value.kind}:${value.name}`) ? [{ ...value, id: `${value.kind}:${value.name}` }, ...items] : items;
  return (
    <ComboBox
      name="allergen"
      className="tw-field"
      items={withChosen}
      inputValue={text}
      onInputChange={(next) => {
        setText(next);
        if (!next.trim()) onChange(null);
      }}
      selectedKey={value ? `${value.kind}:${value.name}` : null}
      onSelectionChange={(key: Key | null) => {
        const chosen = withChosen.find((a) => a.id === key);
        if (!chosen) return;
        onChange({ kind: chosen.kind, name: chosen.name, ...(chosen.rxcui ? { rxcui: chosen.rxcui } : {}) });
        setText(allergenText(chosen));
      }}
      menuTrigger="input"
      allowsEmptyCollection
      allowsCustomValue
    >
      <CodeSearchParts<(typeof withChosen)[number]>
        label="Caused by (for allergy checks)"
        placeholder="Drug class, ingredient or substance"
        busyLabel="Searching allergens"
        isFetching={isFetching}
        description="Type at least 3 characters, e.g. penicillin, sulfa, latex or peanut. Prescriptions and sales are checked against it."
      >
        {(a) => (
          <ListBoxItem id={a.id} textValue={allergenText(a)} className="tw-listbox__item tw-chart-code-option">
            <span className="tw-chart-code">{ALLERGEN_KIND_LABELS[a.kind]}</span>
            <span className="tw-chart-code-option__text">
              {a.name}
              {'examples' in a && a.examples?.length ? ` — e.g. ${a.examples.join(', ')}` : ''}
            </span>
          </ListBoxItem>
        )}
      </CodeSearchParts>
    </ComboBox>
  );
}

/** Medication name search (spec §2): above 3 characters, debounced 500 ms, with the name-only fallback. */
export function DrugNameField({ value, onChange, onPick }: { value: string; onChange: (value: string) => void; onPick: (drug: DrugProduct) => void }) {
  const [searchText, setSearchText] = useState('');
  const { drugs, source, isFetching } = useDrugSearch(searchText);
  const notice = starterNotice('drugs', source);
  const items = drugs.map((drug, index) => ({ ...drug, id: `${index}:${drug.ident}` }));
  return (
    <ComboBox
      name="productName"
      className="tw-field"
      items={items}
      inputValue={value}
      onInputChange={(next) => {
        onChange(next);
        setSearchText(next);
      }}
      onSelectionChange={(key: Key | null) => {
        const drug = items.find((d) => d.id === key);
        if (!drug) return;
        setSearchText('');
        onPick(drug);
      }}
      menuTrigger="input"
      allowsCustomValue
      allowsEmptyCollection
      isRequired
    >
      <CodeSearchParts<DrugProduct & { id: string }>
        label="Name"
        isRequired
        placeholder="Search drugs by name"
        busyLabel="Searching drugs"
        isFetching={isFetching}
        description={notice}
      >
        {(drug) => (
          <ListBoxItem id={drug.id} textValue={drug.productName} className="tw-listbox__item tw-chart-code-option">
            <span className="tw-chart-code-option__text">
              {drug.productName}
              <span className="tw-chart-muted">
                {' '}
                {[[drug.strength, drug.strengthUOM].filter(Boolean).join(' '), drug.dosageForm?.toLowerCase()].filter(Boolean).join(' · ')}
              </span>
            </span>
            {drug.ndc ? <span className="tw-chart-code">{drug.ndc}</span> : null}
          </ListBoxItem>
        )}
      </CodeSearchParts>
    </ComboBox>
  );
}

/** Vaccine name with a CVX lookup: picking a code fills the name and the CVX code; free text stays allowed. */
export function VaccineNameField({
  value,
  onChange,
  onPick,
  autoFocus,
}: {
  value: string;
  onChange: (value: string) => void;
  onPick: (code: VaccineCode) => void;
  autoFocus?: boolean;
}) {
  const [searchText, setSearchText] = useState('');
  const { codes, source, isFetching } = useVaccineCodeSearch(searchText);
  const notice = starterNotice('vaccines', source);
  return (
    <ComboBox
      name="name"
      className="tw-field"
      items={codes.map((code) => ({ ...code, id: code.cvxCode }))}
      inputValue={value}
      onInputChange={(next) => {
        onChange(next);
        setSearchText(next);
      }}
      onSelectionChange={(key: Key | null) => {
        const code = codes.find((c) => c.cvxCode === key);
        if (!code) return;
        setSearchText('');
        onPick(code);
      }}
      menuTrigger="input"
      allowsCustomValue
      allowsEmptyCollection
      isRequired
    >
      <CodeSearchParts<VaccineCode & { id: string }>
        label="Name"
        isRequired
        placeholder="Vaccine name or CVX code"
        busyLabel="Searching vaccines"
        isFetching={isFetching}
        description={notice}
        autoFocus={autoFocus}
      >
        {(code) => (
          <ListBoxItem id={code.id} textValue={code.shortDescription} className="tw-listbox__item tw-chart-code-option">
            <span className="tw-chart-code">{code.cvxCode}</span>
            <span className="tw-chart-code-option__text">{code.shortDescription}</span>
          </ListBoxItem>
        )}
      </CodeSearchParts>
    </ComboBox>
  );
}
