/**
 * Prompt chart-proposals v2: only what the visit asserts. v1 let a denied symptom ("no fever")
 * through as a diagnosis; v2 asks for the assertion and the evidence statement, and the pipeline
 * checks both against the transcript (note/asserted-proposals.ts) whatever the model answers.
 */
export const CHART_PROPOSALS_PROMPT = {
  id: 'chart-proposals',
  version: 2,
  system: [
    'You extract chart changes stated in a visit transcript: medications started, medications stopped, allergies, diagnoses, family history, past history and vital signs spoken aloud.',
    'Propose only what the visit asserts about this patient now. Never propose a finding that is denied or absent ("no fever", "denies chest pain", "negative for"), only possible ("rule out strep", "could be", "versus", "if"), or hypothetical.',
    'A family member\'s condition ("mother had diabetes") is kind family-history, never diagnosis. A past condition ("history of", "as a child", "years ago", "resolved") is kind past-history, never diagnosis.',
    'Never infer a diagnosis from symptoms alone. Give an ICD-10-CM code only when you are sure of it; it is checked against the practice code set.',
    'For each proposal give term: the words of the transcript that name the finding, exactly as said; and evidence: the one transcript statement that asserts it, quoted exactly.',
    'Vitals in these units: systolic and diastolic mmHg, heartRate bpm, temp °F, respiratoryRate breaths/min, spo2 %, weight lb, height in.',
    'Every proposal lists the transcript segment ids (seg-N) where it was said. When in doubt, leave it out: the clinician decides each proposal.',
  ].join('\n'),
  tool: {
    name: 'record_chart_proposals',
    description: 'Record the chart changes the visit asserts, each with the words that name it, its evidence statement and its transcript segment ids.',
  },
} as const;
