import { useQuery } from '@tanstack/react-query';
import type { Contact } from '../../../shared/contacts/contact-schema.js';
import { contactFullName } from '../../../shared/contacts/contact-schema.js';
import { normalizePhone } from '../../../shared/patients/phone.js';
import { apiRequest } from './api-client.js';

export const contactKeys = { list: ['practice', 'contacts'] as const };

/**
 * The practice's contact book (spec shell §7.8), read whole: the contact screens and every place a
 * number is named share it. The contact screens read it again when they open (`fresh`): a colleague
 * may have added someone since.
 */
export function useContacts({ enabled = true, fresh = false }: { enabled?: boolean; fresh?: boolean } = {}) {
  return useQuery({
    queryKey: contactKeys.list,
    queryFn: async ({ signal }) => (await apiRequest<{ contacts: Contact[] }>({ path: '/v2/practices/contacts', signal })).contacts,
    staleTime: 60_000,
    enabled,
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  });
}

/** The contact whose phone or fax number this is, if any: call lists and the SMS header show their name. */
export function contactForNumber(contacts: readonly Contact[] | undefined, phone: string | null | undefined): Contact | null {
  const normalized = phone ? normalizePhone(phone) : null;
  if (!normalized || !contacts) return null;
  return contacts.find((c) => c.phoneNumber === normalized) ?? contacts.find((c) => c.faxNumber === normalized) ?? null;
}

export function useContactName(phone: string | null | undefined, enabled = true): string | null {
  const contacts = useContacts({ enabled: enabled && Boolean(phone) });
  const contact = contactForNumber(contacts.data, phone);
  return contact ? contactFullName(contact) : null;
}
