import { useEffect, useMemo, useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { contactFullName, type Contact } from '../../../../../shared/contacts/contact-schema.js';
import { PATIENT_SEARCH_DEBOUNCE_MS } from '../../../../../shared/constants/patients.js';
import { formatPhone } from '../../../../../shared/patients/phone.js';
import { ChevronDownIcon } from '../../../components/ui/icons.js';
import { useContactPages } from '../../../lib/contacts.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';

/** Enough fax contacts to choose from before the search stops looking on through the book. */
const ENOUGH = 10;
/** Pages one search reads by itself at most; typing more narrows it instead. */
const MAX_PAGES = 5;

export const faxContactLabel = (c: Contact) => `${contactFullName(c)} ${formatPhone(c.faxNumber)}`;

interface Props {
  value: Contact | null;
  onChange: (contact: Contact | null) => void;
}

/**
 * The new fax's recipient: the contact book searched by page on the server (name or number),
 * offering the matches that have a fax number; emptying the box leaves the number to be typed.
 */
export function FaxRecipientPicker({ value, onChange }: Props) {
  // null while not typing: the box then shows the chosen contact.
  const [typed, setTyped] = useState<string | null>(null);
  const search = useDebouncedValue((typed ?? '').trim(), PATIENT_SEARCH_DEBOUNCE_MS);
  const pages = useContactPages(search);
  const loaded = pages.data?.pages.length ?? 0;
  const withFax = useMemo(() => (pages.data?.pages ?? []).flatMap((p) => p.contacts).filter((c) => c.faxNumber), [pages.data]);
  // A search page looks through a bounded stretch of the book: look on while few have a fax number.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    if (search && hasNextPage && !isFetchingNextPage && withFax.length < ENOUGH && loaded < MAX_PAGES) void fetchNextPage();
  }, [search, hasNextPage, isFetchingNextPage, withFax.length, loaded, fetchNextPage]);
  const items = value && !withFax.some((c) => c.contactId === value.contactId) ? [value, ...withFax] : withFax;
  const searching = pages.isFetching || search !== (typed ?? '').trim();

  return (
    <ComboBox
      className="tw-patient-picker tw-patient-picker--field tw-field"
      items={items}
      selectedKey={value?.contactId ?? null}
      inputValue={typed ?? (value ? faxContactLabel(value) : '')}
      onInputChange={(text) => {
        setTyped(text);
        if (text === '') onChange(null);
      }}
      onBlur={() => setTyped(null)}
      onSelectionChange={(key) => {
        setTyped(null);
        onChange(items.find((c) => c.contactId === key) ?? null);
      }}
      menuTrigger="input"
      allowsEmptyCollection
    >
      <Label className="tw-field__label">Recipient</Label>
      <div className="tw-patient-picker__control">
        <Input className="tw-field__input tw-patient-picker__input" placeholder="Search contacts by name or fax number" />
        <Button className="tw-patient-picker__chevron" aria-label="Show contacts">
          <ChevronDownIcon />
        </Button>
      </div>
      <Popover className="tw-popover" placement="bottom start">
        <ListBox
          className="tw-listbox"
          renderEmptyState={() => <p className="tw-patient-picker__empty">{searching ? 'Searching…' : 'No contact with a fax number'}</p>}
        >
          {(c: Contact) => (
            <ListBoxItem id={c.contactId} className="tw-listbox__item tw-patient-picker__option" textValue={faxContactLabel(c)}>
              {faxContactLabel(c)}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
