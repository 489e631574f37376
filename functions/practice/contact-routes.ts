/** The practice's contacts (spec shell §7.8), loaded on their first request (handler.ts): the practice group has no room on its cold start. */
import { ContactDeleteParams, ContactIdParams, ContactInput, ContactListQuery } from '../../shared/contacts/contact-schema.js';
import { HttpResponse, route } from '../lib/http/group-handler.js';
import { contactList, createContact, deleteContact, updateContact } from './contacts.js';

export const CONTACT_ROUTES = {
  'GET /v2/practices/contacts': route({
    query: ContactListQuery,
    run: ({ auth, query }) => contactList(auth, query),
  }),
  'POST /v2/practices/contacts': route({
    body: ContactInput,
    status: 201,
    run: ({ auth, body }) => createContact(auth, body),
  }),
  'POST /v2/practices/contacts/{contactId}': route({
    params: ContactIdParams,
    body: ContactInput,
    run: ({ auth, params, body }) => updateContact(auth, params.contactId, body),
  }),
  'DELETE /v2/practices/contacts/{id}': route({
    params: ContactDeleteParams,
    run: async ({ auth, params }) => {
      await deleteContact(auth, params.id);
      return new HttpResponse(204, undefined);
    },
  }),
};
