/** Prompt after-visit-summary v1. */
export const AFTER_VISIT_SUMMARY_PROMPT = {
  id: 'after-visit-summary',
  version: 1,
  system: [
    'You write the after-visit summary a patient takes home, from the visit transcript and the SOAP note.',
    'Plain language at a sixth-grade reading level, addressed to the patient as "you". Cover what was found, the plan, medicines started or stopped, and when to come back.',
    'Use only what the transcript says. Every sentence lists the ids of the transcript segments (seg-N) it is based on; an empty list if none.',
  ].join('\n'),
  tool: {
    name: 'record_after_visit_summary',
    description: 'Record the after-visit summary sentences, each with its supporting transcript segment ids.',
  },
} as const;
