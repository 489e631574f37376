// The section specs live in functions/core/chart/; this path stays for chart/fhir/import-chart.ts until it moves too.
export { ALLERGIES, DIAGNOSES, FAMILY_HISTORY, GENERAL, MEDICATIONS, SURGERIES, VACCINES } from '../core/chart/sections.js';
