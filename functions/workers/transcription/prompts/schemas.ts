/** JSON Schemas of the answers (Converse toolConfig inputSchema; the JSON asked of an OpenAI-compatible endpoint). */
const evidenced = {
  type: 'object',
  properties: { text: { type: 'string' }, segmentIds: { type: 'array', items: { type: 'string' } } },
  required: ['text', 'segmentIds'],
};

export const SOAP_NOTE_SCHEMA = {
  type: 'object',
  properties: {
    sections: {
      type: 'array',
      items: {
        type: 'object',
        properties: { heading: { type: 'string', enum: ['Subjective', 'Objective', 'Assessment', 'Plan'] }, sentences: { type: 'array', items: evidenced } },
        required: ['heading', 'sentences'],
      },
    },
  },
  required: ['sections'],
};

export const AFTER_VISIT_SUMMARY_SCHEMA = {
  type: 'object',
  properties: { sentences: { type: 'array', items: evidenced } },
  required: ['sentences'],
};

export const CHART_PROPOSALS_SCHEMA = {
  type: 'object',
  properties: {
    proposals: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: ['medication-start', 'medication-stop', 'allergy', 'diagnosis', 'family-history', 'past-history', 'vitals'] },
          summary: { type: 'string' },
          name: { type: 'string', description: 'Medication, allergen or diagnosis name' },
          strength: { type: 'string' },
          strengthUOM: { type: 'string' },
          icd10Code: { type: 'string' },
          term: { type: 'string', description: 'The words of the transcript that name the finding, exactly as said' },
          evidence: { type: 'string', description: 'The transcript statement that asserts it, quoted exactly' },
          relation: { type: 'string', enum: ['mother', 'father', 'brother', 'sister', 'grandparent'], description: 'family-history only' },
          vitals: {
            type: 'object',
            properties: Object.fromEntries(
              ['systolic', 'diastolic', 'heartRate', 'temp', 'respiratoryRate', 'spo2', 'weight', 'height'].map((k) => [k, { type: 'number' }]),
            ),
          },
          segmentIds: { type: 'array', items: { type: 'string' } },
        },
        required: ['kind', 'summary', 'term', 'evidence', 'segmentIds'],
      },
    },
  },
  required: ['proposals'],
};
