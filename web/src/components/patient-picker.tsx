import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { PATIENT_SEARCH_DEBOUNCE_MS } from '../../../shared/constants/patients.js';
import { fullNameWithAge } from '../../../shared/patients/patient-derived.js';
import { matchReasonLabel } from '../../../shared/patients/patient-search.js';
import { patientKeys, usePatient, usePatientSearch } from '../lib/patients.js';
import { useDebouncedValue } from '../lib/use-debounced-value.js';
import { ChevronDownIcon } from './ui/icons.js';
import './patient-picker.css';

/** One letter matches nearly everyone; the list waits for a second character. */
const MIN_QUERY = 2;

export interface PatientPickerProps {
  /** The chosen patient's id, or null. */
  value: string | null;
  /** The chosen patient's name while nothing is typed; read by id when not given. */
  valueLabel?: string;
  onChange: (patientId: string | null, name: string) => void;
  label?: string;
  /** A header picker (the note window's) names itself to assistive technology only. */
  variant?: 'field' | 'inline';
  placeholder?: string;
  isDisabled?: boolean;
  /** Emptying the box clears the choice (an optional form field); otherwise the patient stays until another is picked. */
  clearable?: boolean;
  className?: string;
}

interface Option {
  id: string;
  name: string;
  match: string | null;
}

/**
 * Search a patient by name or phone number and pick one (spec shell: 'Search name or number',
 * 'Type to search a patient name', 'No result'). Phone matches say how the number matched.
 */
export function PatientPicker({
  value,
  valueLabel,
  onChange,
  label = 'Patient',
  variant = 'field',
  placeholder = 'Search name or number',
  isDisabled,
  clearable,
  className,
}: PatientPickerProps) {
  const queryClient = useQueryClient();
  const chosen = usePatient(valueLabel === undefined ? value : null);
  const chosenName = valueLabel ?? (chosen.data ? fullNameWithAge(chosen.data) : '');
  // null while the user is not typing: the box then shows the chosen patient's name.
  const [typed, setTyped] = useState<string | null>(null);
  const query = useDebouncedValue((typed ?? '').trim(), PATIENT_SEARCH_DEBOUNCE_MS);
  const results = usePatientSearch(query, { enabled: query.length >= MIN_QUERY });
  const found = results.data?.items ?? [];
  const reasons = new Map((results.data?.matches ?? []).map((m) => [m.id, m]));
  const items: Option[] = found.map((p) => {
    const reason = reasons.get(p.id);
    return { id: p.id, name: fullNameWithAge(p), match: reason ? matchReasonLabel(reason) : null };
  });
  if (value && chosenName && !items.some((i) => i.id === value)) items.unshift({ id: value, name: chosenName, match: null });

  return (
    <ComboBox
      className={['tw-patient-picker', `tw-patient-picker--${variant}`, variant === 'field' ? 'tw-field' : '', className ?? ''].filter(Boolean).join(' ')}
      items={items}
      selectedKey={value}
      inputValue={typed ?? chosenName}
      onInputChange={(text) => {
        setTyped(text);
        if (clearable && text === '') onChange(null, '');
      }}
      onBlur={() => setTyped(null)}
      onSelectionChange={(key) => {
        const option = items.find((i) => i.id === key);
        setTyped(null);
        if (!option) return;
        // The picked patient is already loaded: its name shows at once wherever it is read by id.
        const patient = found.find((p) => p.id === option.id);
        if (patient) queryClient.setQueryData(patientKeys.detail(patient.id), patient);
        onChange(option.id, option.name);
      }}
      isDisabled={isDisabled}
      menuTrigger="input"
      allowsEmptyCollection
    >
      <Label className={variant === 'inline' ? 'tw-visually-hidden' : 'tw-field__label'}>{label}</Label>
      <div className="tw-patient-picker__control">
        <Input className={variant === 'inline' ? 'tw-patient-picker__input' : 'tw-field__input tw-patient-picker__input'} placeholder={placeholder} />
        <Button className="tw-patient-picker__chevron" aria-label="Show patients">
          <ChevronDownIcon />
        </Button>
      </div>
      <Popover className="tw-popover" placement="bottom start">
        <ListBox
          className="tw-listbox"
          renderEmptyState={() => (
            <p className="tw-patient-picker__empty">{query.length >= MIN_QUERY && results.isSuccess ? 'No result' : 'Type to search a patient name'}</p>
          )}
        >
          {(item: Option) => (
            <ListBoxItem id={item.id} className="tw-listbox__item tw-patient-picker__option" textValue={item.name}>
              <span>{item.name}</span>
              {item.match ? <span className="tw-patient-picker__match">{item.match}</span> : null}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
