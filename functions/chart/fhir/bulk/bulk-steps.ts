/** The state machine's contract lives with the export's use cases (core/fhir-bulk); the stack and the chart handler read it here. */
export * from '../../../core/fhir-bulk/bulk-steps.js';
