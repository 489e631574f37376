import { describe, expect, it } from 'vitest';
import { chartPatientOf } from './chart-address.js';

describe("the chart whose code and patient load with the app's", () => {
  it("is the patient's for a chart and its tabs", () => {
    expect(chartPatientOf('#/patients/pat-0001')).toBe('pat-0001');
    expect(chartPatientOf('#/patients/pat-0001/notes')).toBe('pat-0001');
    expect(chartPatientOf('#/patients/pat%200001?tab=labs')).toBe('pat 0001');
  });

  it('is none for the other screens, the patient form and the access history among them', () => {
    for (const hash of [
      '',
      '#/home',
      '#/patients',
      '#/patients/new',
      '#/patients/pat-0001/edit',
      '#/patients/pat-0001/access-history',
      '#/messages',
      '#/patients/%E0%A4%A',
    ])
      expect(chartPatientOf(hash)).toBeUndefined();
  });
});
