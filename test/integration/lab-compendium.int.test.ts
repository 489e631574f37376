import { beforeAll, describe, expect, it } from 'vitest';
import { LAB_TESTS, type LabNoteData } from '../../shared/labs/lab-schema.js';
import { api, signIn } from '../support/local-stack.js';
import { eventually } from '../support/eventually.js';

const run = Date.now().toString(36);
let provider: string;

/** What a direct-primary-care practice orders, each with the LOINC codes its results carry. */
const EXPECTED: Record<string, string[]> = {
  '51990-0': ['2345-7', '3094-0', '2160-0', '2951-2', '2823-3', '2075-0', '2028-9', '17861-6'],
  '24356-8': ['5811-5', '5803-2', '5804-0', '5792-7', '5797-6', '5794-3', '5799-2', '5802-4'],
  '78012-2': ['78012-2'],
  '3024-7': ['3024-7'],
  '62292-8': ['62292-8'],
  '2857-1': ['2857-1'],
  '2132-9': ['2132-9'],
  '2276-4': ['2276-4'],
};

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
});

describe('the local lab compendium', () => {
  it('orders a BMP, urinalysis, rapid strep, free T4, vitamin D, PSA, B12 and ferritin and returns plausible LOINC-coded results for each', async () => {
    const codes = Object.keys(EXPECTED);
    expect(LAB_TESTS.map((t) => t.code)).toEqual(expect.arrayContaining([...codes, '24323-8', '58410-2', '57698-3', '4548-4', '3016-3']));
    const patientId = (await api(provider, 'POST', '/v1/patients', { firstName: 'Lena', lastName: `Labpanel${run}`, gender: 'male', dob: '1968-03-09' })).body
      .id as string;
    const created = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'LAB', status: 'DRAFT', data: { text: 'Labs' }, patientId });
    const ordered = await api(provider, 'POST', `/v1/notes/${created.body.noteId}/lab-order`, { noteVersion: created.body.noteVersion, tests: codes });
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
    const note = await eventually(
      'a result for every ordered panel',
      async () => (await api(provider, 'GET', `/v1/notes/${created.body.noteId}`)).body.data as LabNoteData,
      (d) => new Set((d.results ?? []).map((r) => r.panel)).size === codes.length,
      { within: 30_000 },
    );
    const results = note.results ?? [];
    for (const code of codes) {
      const display = LAB_TESTS.find((t) => t.code === code)!.display;
      const panel = results.filter((r) => r.panel === display);
      expect(
        panel.map((r) => r.code),
        display,
      ).toEqual(EXPECTED[code]);
      for (const r of panel) {
        if (r.valueQuantity) {
          // Numeric: a value, and a reference range it can be read against.
          expect(Number.isFinite(r.valueQuantity.value), `${display} ${r.text}`).toBe(true);
          expect(r.ranges?.[0], `${display} ${r.text}`).toBeDefined();
        } else {
          // In words, as a dipstick or a rapid antigen test reads.
          expect(r.valueString, `${display} ${r.text}`).toMatch(/^(Negative|Not detected|Detected|Positive|Trace|\d\+)/);
        }
      }
    }
    // A urine's specific gravity and pH stay where urine is.
    const sg = results.find((r) => r.code === '5811-5')!.valueQuantity!.value!;
    const ph = results.find((r) => r.code === '5803-2')!.valueQuantity!.value!;
    expect(sg).toBeGreaterThanOrEqual(1.0);
    expect(sg).toBeLessThanOrEqual(1.04);
    expect(ph).toBeGreaterThanOrEqual(4.5);
    expect(ph).toBeLessThanOrEqual(9);
    // Vitamin D is read against 30–100 ng/mL, PSA against ≤ 4.0 ng/mL.
    expect(results.find((r) => r.code === '62292-8')!.ranges![0]).toEqual({ low: 30, high: 100 });
    expect(results.find((r) => r.code === '2857-1')!.ranges![0]).toEqual({ high: 4 });
  });
});
