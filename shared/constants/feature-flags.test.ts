import { describe, expect, it } from 'vitest';
import { FEATURE_FLAGS, resolveFeatureFlags } from './feature-flags.js';

describe('resolveFeatureFlags', () => {
  it('answers every known flag, false unless stored true', () => {
    const flags = resolveFeatureFlags({ ai_streaming: true, trending_labs: 'yes' });
    expect(Object.keys(flags).sort()).toEqual([...FEATURE_FLAGS].sort());
    expect(flags.ai_streaming).toBe(true);
    expect(flags.trending_labs).toBe(false);
    expect(flags.tidewell_copilot).toBe(false);
  });
  it('keeps flags set beyond the known list', () => {
    expect(resolveFeatureFlags({ beta_x: true }).beta_x).toBe(true);
    expect(resolveFeatureFlags(null).ai_analyze).toBe(false);
  });
});
