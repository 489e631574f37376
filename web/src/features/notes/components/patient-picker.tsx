import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { fullNameWithAge } from '../../../../../shared/patients/patient-derived.js';
import { PatientListResponse } from '../../../../../shared/patients/patient-schema.js';
import { ChevronDownIcon } from '../../../components/ui/icons.js';
import { apiRequest } from '../../../lib/api-client.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';

const SEARCH_DEBOUNCE_MS = 300;

/** The note header's patient selector: search by name; choosing another patient moves the note. */
export function PatientPicker({ patientName, isDisabled, onChange }: { patientName: string; isDisabled: boolean; onChange: (patientId: string, name: string) => void }) {
  const [input, setInput] = useState(patientName);
  const [editing, setEditing] = useState(false);
  /**
   * Leaving the field makes the combo box reset its text to the chosen item's, and it has none
   * chosen (the note's patient is shown as text): that reset must not blank the patient's name.
   */
  const focused = useRef(false);
  const query = useDebouncedValue(editing ? input.trim() : '', SEARCH_DEBOUNCE_MS);
  const results = useQuery({
    queryKey: ['notes', 'patient-search', query],
    queryFn: async ({ signal }) => PatientListResponse.parse(await apiRequest<unknown>({ path: '/v1/patients', query: { q: query, limit: 10 }, signal })).items,
    enabled: query.length >= 2,
  });
  const items = (results.data ?? []).map((p) => ({ id: p.id, name: fullNameWithAge(p) }));

  return (
    <ComboBox
      className="tw-note-patient"
      inputValue={editing ? input : patientName}
      onInputChange={(value) => {
        if (!focused.current) return;
        setEditing(true);
        setInput(value);
      }}
      onFocus={() => {
        focused.current = true;
      }}
      onBlur={() => {
        focused.current = false;
        setEditing(false);
      }}
      items={items}
      isDisabled={isDisabled}
      menuTrigger="input"
      onSelectionChange={(key) => {
        const chosen = items.find((i) => i.id === key);
        setEditing(false);
        if (chosen) onChange(chosen.id, chosen.name);
      }}
    >
      <Label className="tw-visually-hidden">Patient</Label>
      <div className="tw-note-patient__control">
        <Input className="tw-note-patient__input" placeholder="Search patient" />
        <Button className="tw-note-patient__chevron" aria-label="Show patients">
          <ChevronDownIcon />
        </Button>
      </div>
      <Popover className="tw-popover" placement="bottom start">
        <ListBox className="tw-listbox" renderEmptyState={() => <div className="tw-listbox__empty">{query.length < 2 ? 'Type a name' : 'No patients found'}</div>}>
          {(item: { id: string; name: string }) => (
            <ListBoxItem className="tw-listbox__item" id={item.id} textValue={item.name}>
              {item.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
