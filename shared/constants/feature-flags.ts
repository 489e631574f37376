/**
 * Feature flags of spec shell §6 ({product} is tidewell). The feature gates endpoint answers each
 * of these, false unless the practice turned it on.
 */
export const FEATURE_FLAGS = [
  'tidewell_copilot',
  'member_clinical_data_share',
  'clinical_problems_list_redesign',
  'clinical_note_link_structured_data',
  'general_copilot_agent',
  'clinical_linked_health_summary',
  'new_messaging_endpoint',
  'trending_labs',
  'ai_analyze',
  'ai_streaming',
  'copilot_custom_templates',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** Every known flag, false unless set true; flags the practice sets beyond the list are kept. */
export function resolveFeatureFlags(stored: Record<string, unknown> | undefined | null): Record<string, boolean> {
  const flags: Record<string, boolean> = {};
  for (const f of FEATURE_FLAGS) flags[f] = false;
  for (const [k, v] of Object.entries(stored ?? {})) flags[k] = v === true;
  return flags;
}
