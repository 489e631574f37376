/** The files bucket's one client lives with the whole-practice export (core/fhir-bulk); the C-CDA import reads it here. */
export { store } from '../fhir-bulk/files-store.js';
