import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTACT_MESSAGES, type Contact, type ContactInput } from '../../../../../shared/contacts/contact-schema.js';
import { ContactRecord } from '../../../../../shared/contacts/contact-responses.js';
import { NoContent } from '../../../../../shared/http/no-content.js';
import { apiRequest } from '../../../lib/api-client.js';
import { contactKeys } from '../../../lib/contacts.js';

/** Update needs the saved contact's id; one never saved cannot be updated (spec shell §8 Contact update). */
export function saveContact(body: ContactInput, contactId?: string | null, update = contactId !== undefined): Promise<Contact> {
  if (update && !contactId) return Promise.reject(new Error(CONTACT_MESSAGES.missingId));
  return apiRequest(
    { method: 'POST', path: update ? `/v2/practices/contacts/${encodeURIComponent(contactId!)}` : '/v2/practices/contacts', body },
    ContactRecord,
  );
}

// Pages, number lookups and the contact itself may all name it: they are read again.
export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, contactId }: { body: ContactInput; contactId?: string | null }) => saveContact(body, contactId),
    onSuccess: (saved) => {
      queryClient.setQueryData(contactKeys.one(saved.contactId), saved);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
    },
  });
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contactId: string) => apiRequest({ method: 'DELETE', path: `/v2/practices/contacts/${encodeURIComponent(contactId)}` }, NoContent),
    onSuccess: (_, contactId) => {
      queryClient.removeQueries({ queryKey: contactKeys.one(contactId) });
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
    },
  });
}
