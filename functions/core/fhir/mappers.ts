import { allergies } from './allergies.js';
import { appointments } from './appointments.js';
import { phoneCalls } from './calls.js';
import { textMessages } from './communications.js';
import { conditions, healthConcerns } from './conditions.js';
import { saleDispenses } from './dispenses.js';
import { documents } from './documents.js';
import { faxes } from './faxes.js';
import { familyHistory } from './family-history.js';
import { questionnaireResponses } from './forms.js';
import { immunizations } from './immunizations.js';
import { labs } from './labs.js';
import { medicationStatements } from './medication-statements.js';
import type { ChartMapper } from './model.js';
import { prescriptions } from './prescriptions.js';
import { procedures } from './procedures.js';
import { socialHistory } from './social-history.js';
import { vitals } from './vitals.js';

/** Every kind of Tidewell data the export writes, one module each. */
export const CHART_MAPPERS: readonly ChartMapper[] = [
  allergies,
  conditions,
  healthConcerns,
  medicationStatements,
  prescriptions,
  saleDispenses,
  immunizations,
  procedures,
  familyHistory,
  vitals,
  socialHistory,
  labs,
  documents,
  textMessages,
  faxes,
  phoneCalls,
  appointments,
  questionnaireResponses,
];
