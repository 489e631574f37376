/**
 * Lambda event filtering (the subset the stack's filters use): a pattern is an object whose
 * leaves are arrays of accepted values; a value matches a literal, or a rule object
 * { exists: boolean }, { prefix: string }, { 'anything-but': value | value[] }. A pattern the
 * local emitter cannot evaluate throws, so the local filter never silently differs from AWS.
 */
type Pattern = Record<string, unknown>;

export function matchesAnyFilter(event: unknown, filters: readonly Pattern[]): boolean {
  return filters.length === 0 || filters.some((pattern) => matchesPattern(event, pattern));
}

function matchesPattern(value: unknown, pattern: Pattern): boolean {
  return Object.entries(pattern).every(([name, rule]) => {
    const field = value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
    if (Array.isArray(rule)) return rule.some((accepted) => matchesRule(field, accepted));
    if (rule && typeof rule === 'object') return matchesPattern(field, rule as Pattern);
    throw new Error(`Unsupported filter pattern at ${name}: leaves must be arrays`);
  });
}

function matchesRule(field: unknown, rule: unknown): boolean {
  if (rule === null || typeof rule !== 'object') {
    return Array.isArray(field) ? field.some((f) => f === rule) : field === rule;
  }
  const entries = Object.entries(rule as Record<string, unknown>);
  if (entries.length !== 1) throw new Error(`Unsupported filter rule ${JSON.stringify(rule)}`);
  const [[operator, operand]] = entries;
  const scalar = field !== undefined && (field === null || typeof field !== 'object');
  switch (operator) {
    case 'exists':
      return operand ? field !== undefined : field === undefined;
    case 'prefix':
      return typeof field === 'string' && field.startsWith(String(operand));
    case 'anything-but': {
      const excluded = Array.isArray(operand) ? operand : [operand];
      return scalar && !excluded.includes(field);
    }
    default:
      throw new Error(`Unsupported filter operator ${operator}`);
  }
}
