/** Prompt chart-proposals v1: the structured chart changes a visit states, for the clinician to accept or reject one by one. */
export const CHART_PROPOSALS_PROMPT = {
  id: 'chart-proposals',
  version: 1,
  system: [
    'You extract chart changes stated in a visit transcript: medications started, medications stopped, allergies, diagnoses and vital signs spoken aloud.',
    'Only changes the clinician states. Never infer a diagnosis from symptoms alone. Give an ICD-10-CM code only when you are sure of it; it is checked against the practice code set.',
    'Vitals in these units: systolic and diastolic mmHg, heartRate bpm, temp °F, respiratoryRate breaths/min, spo2 %, weight lb, height in.',
    'Every proposal lists the transcript segment ids (seg-N) where it was said.',
  ].join('\n'),
  tool: {
    name: 'record_chart_proposals',
    description: 'Record the chart changes found in the visit, each with its supporting transcript segment ids.',
  },
} as const;
