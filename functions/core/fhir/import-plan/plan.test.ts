import { describe, expect, it } from 'vitest';
import { bundleContext, patientName, plan } from './index.js';

describe('planning what another system sent', () => {
  const bundle = bundleContext([{ fullUrl: 'urn:uuid:p1', resource: { resourceType: 'Patient', name: [{ given: ['Ada'], family: 'Lovelace' }] } }]);

  it('leaves out a resource type it does not know, even one named like a built-in (toString, constructor)', () => {
    for (const resourceType of ['toString', 'constructor', 'hasOwnProperty', 'Basic']) {
      expect(plan({ resourceType }, bundle)).toEqual({ summary: resourceType, reason: `${resourceType} is not imported yet` });
    }
  });

  it('names a patient from the HumanName list, and nobody from a name that is not one', () => {
    expect(
      patientName({
        name: [
          { use: 'usual', given: ['Ada'] },
          { use: 'official', given: ['Augusta', 'Ada'], family: 'King' },
        ],
      }),
    ).toBe('Augusta Ada King');
    expect(patientName({ name: [{ text: 'Ada Lovelace' }] })).toBe('Ada Lovelace');
    expect(patientName({ name: 'Ada Lovelace' })).toBe('');
    expect(patientName({ name: [{ given: 'Ada', family: 'Lovelace' }, null] })).toBe('Lovelace');
    expect(plan({ resourceType: 'Practitioner', name: 'Dr. Who' }, bundle)).toEqual({ summary: 'Practitioner:', reason: 'Named on what it wrote' });
  });
});
