import { randomUUID } from 'node:crypto';

/** A new chart's id, 28 characters: within the 35 the spec allows for a patient id. */
export const newPatientId = () => `pat_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
