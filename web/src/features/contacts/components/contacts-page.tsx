import { useEffect, useState } from 'react';
import { NavLink, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { CONTACT_MESSAGES, CONTACT_PAGE, ContactInput, contactFullName, type Contact } from '../../../../../shared/contacts/contact-schema.js';
import { formatPhone, normalizePhone } from '../../../../../shared/patients/phone.js';
import { Button } from '../../../components/ui/button.js';
import { ClickableRow } from '../../../components/ui/clickable-row.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { Form } from '../../../components/ui/form.js';
import { Link } from '../../../components/ui/link.js';
import { Page } from '../../../components/ui/page.js';
import { SearchField } from '../../../components/ui/search-field.js';
import { QueryTable } from '../../../components/ui/query-table.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError, NETWORK_ERROR_MESSAGE } from '../../../lib/api-error.js';
import { useContact, useContactForNumber, useContactPages } from '../../../lib/contacts.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { paths } from '../../../lib/paths.js';
import { showToast, withServerText } from '../../../lib/toasts.js';
import { zodFieldErrors } from '../../../lib/zod-field-errors.js';
import { useDeleteContact, useSaveContact } from '../api/contacts-api.js';
import '../contacts.css';

export const contactPath = (contactId: string, query?: { phoneNumber?: string }) =>
  `${paths.contacts('list')}/${encodeURIComponent(contactId)}${query?.phoneNumber ? `?phoneNumber=${encodeURIComponent(query.phoneNumber)}` : ''}`;

function ContactsNav() {
  return (
    <nav className="tw-contacts__nav" aria-label="Contacts">
      <NavLink to={paths.contacts('list')} className="tw-contacts__tab">
        Contact list
      </NavLink>
      <NavLink to={paths.contacts('dial-pad')} className="tw-contacts__tab">
        Dial pad
      </NavLink>
    </nav>
  );
}

/** /contacts/list: the practice's contacts a page at a time, searched by name, number or email (an email match ranks lower). */
export function ContactListPage() {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const search = useDebouncedValue(query.trim(), 250);
  const contacts = useContactPages(search);
  const shown = contacts.data?.pages.flatMap((p) => p.contacts);
  // A search page holds the matches of one stretch of the book: a rare name looks on until a page is shown.
  const looksOn = Boolean(search) && contacts.hasNextPage && !contacts.isFetching && (shown?.length ?? 0) < CONTACT_PAGE.size;
  useEffect(() => {
    if (looksOn) void contacts.fetchNextPage();
  }, [looksOn, contacts]);
  return (
    <Page
      title="Contacts"
      nav={<ContactsNav />}
      actions={
        <Link variant="primary" href={contactPath('new')}>
          Add contact
        </Link>
      }
    >
      <div className="tw-card tw-contacts__card">
        <div className="tw-contacts__body">
          <SearchField label="Search contacts" placeholder="Name, phone, fax or email" value={query} onChange={setQuery} className="tw-contacts__search" />
        </div>
        <QueryTable
          query={contacts}
          items={shown}
          emptyText={search ? 'No contacts match.' : 'No contacts yet. Add the specialists, pharmacies and labs the practice works with.'}
          label="Contacts"
          columns={['Name', 'Phone', 'Fax', 'Email', 'Groups']}
          renderRow={(c) => (
            <ClickableRow key={c.contactId} onOpen={() => void navigate(contactPath(c.contactId))}>
              <td>
                <Link href={contactPath(c.contactId)}>{contactFullName(c)}</Link>
              </td>
              <td>{c.phoneNumber ? formatPhone(c.phoneNumber) : '—'}</td>
              <td>{c.faxNumber ? formatPhone(c.faxNumber) : '—'}</td>
              <td>{c.email ?? '—'}</td>
              <td>{c.groups.join(', ') || '—'}</td>
            </ClickableRow>
          )}
        />
        {contacts.hasNextPage ? (
          <div className="tw-table-pager">
            <Button size="sm" onPress={() => void contacts.fetchNextPage()} isPending={contacts.isFetchingNextPage}>
              {search ? 'Search more contacts' : 'Load more contacts'}
            </Button>
          </div>
        ) : null}
      </div>
    </Page>
  );
}

/** /contacts/list/{contactId} (and /contacts/list/new): one contact's fields. */
export function ContactPage() {
  const { contactId = 'new' } = useParams();
  const isNew = contactId === 'new';
  const contacts = useContact(contactId, !isNew);
  const contact = isNew ? null : (contacts.data ?? null);
  return (
    <Page title="Contacts" nav={<ContactsNav />} actions={<Link href={paths.contacts('list')}>All contacts</Link>}>
      {!isNew && contacts.isPending ? (
        <Spinner label="Loading the contact" />
      ) : !isNew && !contact ? (
        <div className="tw-card tw-contacts__body">
          <p role="alert">{contacts.isError ? NETWORK_ERROR_MESSAGE : CONTACT_MESSAGES.notFound}</p>
        </div>
      ) : (
        <ContactForm key={`${contact?.contactId ?? 'new'}-${contact?.updatedAt ?? ''}`} contact={contact} />
      )}
    </Page>
  );
}

function ContactForm({ contact }: { contact: Contact | null }) {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const save = useSaveContact();
  const remove = useDeleteContact();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [values, setValues] = useState({
    name: contact?.name ?? '',
    lastName: contact?.lastName ?? '',
    phoneNumber: formatPhone(contact?.phoneNumber ?? search.get('phoneNumber') ?? ''),
    faxNumber: formatPhone(contact?.faxNumber ?? ''),
    email: contact?.email ?? '',
    groups: contact?.groups.join(', ') ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: keyof typeof values, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };

  const submit = async () => {
    const body = {
      name: values.name,
      lastName: values.lastName,
      phoneNumber: values.phoneNumber,
      faxNumber: values.faxNumber,
      email: values.email,
      groups: values.groups
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean),
    };
    const parsed = ContactInput.safeParse(body);
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    try {
      const saved = await save.mutateAsync({ body, contactId: contact ? contact.contactId : undefined });
      showToast(CONTACT_MESSAGES.saved, { tone: 'success' });
      if (!contact) void navigate(contactPath(saved.contactId), { replace: true });
    } catch (error) {
      if (isApiError(error)) setErrors(error.fieldErrors);
      showToast(withServerText(CONTACT_MESSAGES.saveError, error), { tone: 'error' });
    }
  };

  return (
    <div className="tw-card tw-contacts__card">
      <div className="tw-card__header">
        <h2 className="tw-card__title">{contact ? contactFullName(contact) : 'New contact'}</h2>
      </div>
      <div className="tw-contacts__body">
        <Form
          className="tw-contacts__form"
          validationErrors={Object.fromEntries(Object.entries(errors).filter(([, m]) => m))}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <TextField label="Name" name="name" isRequired value={values.name} onChange={(v) => set('name', v)} />
          <TextField label="Last name" name="lastName" value={values.lastName} onChange={(v) => set('lastName', v)} />
          <TextField
            label="Phone number"
            name="phoneNumber"
            inputMode="tel"
            placeholder="(555) 555-5555"
            value={values.phoneNumber}
            onChange={(v) => set('phoneNumber', v)}
          />
          <TextField
            label="Fax number"
            name="faxNumber"
            inputMode="tel"
            placeholder="(555) 555-5555"
            value={values.faxNumber}
            onChange={(v) => set('faxNumber', v)}
          />
          <TextField label="Email" name="email" inputMode="email" value={values.email} onChange={(v) => set('email', v)} />
          <TextField
            label="Groups"
            name="groups"
            description="Separated by commas, e.g. Specialists, Pharmacies"
            value={values.groups}
            onChange={(v) => set('groups', v)}
          />
          <div className="tw-contacts__actions tw-contacts__span">
            <Button type="submit" variant="primary" isPending={save.isPending}>
              {contact ? 'Save contact' : 'Add contact'}
            </Button>
            {contact ? (
              <Button variant="danger" onPress={() => setConfirmDelete(true)}>
                Delete contact
              </Button>
            ) : null}
          </div>
        </Form>
      </div>
      {contact ? (
        <ConfirmDialog
          isOpen={confirmDelete}
          onOpenChange={setConfirmDelete}
          title="Delete contact"
          confirmLabel="Delete"
          tone="danger"
          isPending={remove.isPending}
          onConfirm={() => {
            remove.mutate(contact.contactId, {
              onSuccess: () => {
                showToast(CONTACT_MESSAGES.deleted, { tone: 'success' });
                void navigate(paths.contacts('list'), { replace: true });
              },
              onError: (error) => showToast(withServerText(CONTACT_MESSAGES.deleteError, error), { tone: 'error' }),
            });
          }}
        >
          {contactFullName(contact)} is removed from the practice's contacts.
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;

/** /contacts/dial-pad: a number typed or pressed, and whose it is among the contacts. */
export function DialPadPage() {
  const [number, setNumber] = useState('');
  const normalized = normalizePhone(number.replace(/[*#]/g, ''));
  const match = useContactForNumber(normalized);
  return (
    <Page title="Contacts" nav={<ContactsNav />}>
      <div className="tw-card tw-contacts__card tw-contacts__dial">
        <div className="tw-contacts__body">
          <TextField
            label="Number"
            name="number"
            inputMode="tel"
            value={number}
            onChange={(v) => setNumber(v.replace(/[^0-9()*# +-]/g, ''))}
            className="tw-contacts__dial-number"
          />
          <div className="tw-contacts__keys" role="group" aria-label="Dial pad">
            {KEYS.map((k) => (
              <Button key={k} className="tw-contacts__key" onPress={() => setNumber((n) => n + k)} aria-label={k === '*' ? 'Star' : k === '#' ? 'Pound' : k}>
                {k}
              </Button>
            ))}
          </div>
          <div className="tw-contacts__actions">
            <Button onPress={() => setNumber((n) => n.slice(0, -1))} isDisabled={!number}>
              Delete digit
            </Button>
            <Button onPress={() => setNumber('')} isDisabled={!number}>
              Clear
            </Button>
            {normalized ? <Link href={paths.newCall({ to: normalized })}>Call {formatPhone(normalized)}</Link> : null}
          </div>
          <p className="tw-contacts__dial-match" aria-live="polite">
            {!normalized ? (
              'Enter a 10-digit number.'
            ) : match ? (
              <>
                {formatPhone(normalized)} is <Link href={contactPath(match.contactId)}>{contactFullName(match)}</Link>.
              </>
            ) : (
              <>
                {formatPhone(normalized)} is not in the practice's contacts. <Link href={contactPath('new', { phoneNumber: normalized })}>Add contact</Link>
              </>
            )}
          </p>
        </div>
      </div>
    </Page>
  );
}
