/**
 * The endpoint groups: one Lambda each. The CDK stack and the local API both read this list,
 * so a route exists in both places or in neither. Each group's routes.ts holds only route keys
 * (no handler code), so the stack can read them without loading handlers.
 */
import { PATIENT_ROUTES } from './patients/routes.js';
import { PRACTICE_ROUTES } from './practice/routes.js';

export interface GroupDefinition {
  name: string;
  /** Handler module, relative to the repository root; exports `handler`. */
  entry: string;
  routes: readonly string[];
  memoryMb?: number;
  timeoutSeconds?: number;
}

export const GROUPS: GroupDefinition[] = [
  { name: 'patients', entry: 'functions/patients/handler.ts', routes: PATIENT_ROUTES },
  { name: 'practice', entry: 'functions/practice/handler.ts', routes: PRACTICE_ROUTES },
];
