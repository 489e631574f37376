// The section rules live in functions/core/chart/; this path stays for chart/fhir/import-chart.ts until it moves too.
export { buildStored, type SectionSpec } from '../core/chart/section-crud.js';
