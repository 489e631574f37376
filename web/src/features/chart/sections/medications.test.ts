import { describe, expect, it } from 'vitest';
import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { medicationsDefinition } from './medications.js';
import { errorsOf } from './test-helpers.js';

describe('medication form', () => {
  it('maps the Active checkbox to Active or Complete and checks the dates', () => {
    const body = medicationsDefinition.toBody({ ...medicationsDefinition.toValues(), productName: 'Metformin', active: false, start: '02/30/2024' });
    expect(body.status).toBe('Complete');
    expect(errorsOf(medicationsDefinition, body)).toEqual({ start: 'Start Date is not valid' });
  });

  it('names a deleted medication by its note-link data type (spec §3, §4)', () => {
    expect(CHART_MESSAGES.deletedLinked(medicationsDefinition.linkType ?? medicationsDefinition.noun)).toBe('This medication has been deleted');
  });
});
