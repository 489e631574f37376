import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Contact } from '../../../shared/contacts/contact-schema.js';
import { contactFullName } from '../../../shared/contacts/contact-schema.js';
import { normalizePhone } from '../../../shared/patients/phone.js';
import { ContactPageAnswer } from '../../../shared/contacts/contact-responses.js';
import { apiRequest } from './api-client.js';

const all = ['practice', 'contacts'] as const;
export const contactKeys = {
  all,
  pages: (search: string) => [...all, 'pages', search] as const,
  number: (n: string) => [...all, 'number', n] as const,
  one: (contactId: string) => [...all, 'one', contactId] as const,
};

const read = (query: Record<string, string>, signal?: AbortSignal) => apiRequest({ path: '/v2/practices/contacts', query, signal }, ContactPageAnswer);

/**
 * The practice's contact book (spec shell §7.8) a page at a time in name order, or the matches of
 * `search`; the contact screens read it again when they open: a colleague may have added someone.
 */
export function useContactPages(search = '') {
  return useInfiniteQuery({
    queryKey: contactKeys.pages(search),
    queryFn: ({ pageParam, signal }) => read({ ...(search ? { search } : {}), ...(pageParam ? { nextToken: pageParam } : {}) }, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextToken || undefined,
    refetchOnMount: 'always',
    placeholderData: keepPreviousData,
  });
}

/** One contact by its id; null when there is none. */
export function useContact(contactId: string, enabled = true) {
  return useQuery({
    queryKey: contactKeys.one(contactId),
    queryFn: async ({ signal }) => (await read({ contactId }, signal)).contacts[0] ?? null,
    enabled,
    refetchOnMount: 'always',
  });
}

/** The contact whose phone or fax number this is, if any (a phone match first). */
export function contactForNumber(contacts: readonly Contact[] | undefined, phone: string | null | undefined): Contact | null {
  const normalized = phone ? normalizePhone(phone) : null;
  if (!normalized || !contacts) return null;
  return contacts.find((c) => c.phoneNumber === normalized) ?? contacts.find((c) => c.faxNumber === normalized) ?? null;
}

/** Whose number this is, from that number's own lookup: call lists, the SMS header, the dial pad. */
export function useContactForNumber(phone: string | null | undefined, enabled = true) {
  const normalized = phone ? normalizePhone(phone) : null;
  const query = useQuery({
    queryKey: contactKeys.number(normalized ?? ''),
    queryFn: async ({ signal }) => (await read({ phoneNumber: normalized! }, signal)).contacts,
    staleTime: 60_000,
    enabled: enabled && Boolean(normalized),
  });
  return contactForNumber(query.data, normalized);
}

export function useContactName(phone: string | null | undefined, enabled = true): string | null {
  const contact = useContactForNumber(phone, enabled);
  return contact ? contactFullName(contact) : null;
}
