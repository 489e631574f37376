/**
 * API Gateway's HTTP API JWT authorizer passes array claims flattened as "[a b]";
 * a token decoded elsewhere carries a real array. Accept both.
 */
export function parseGroupsClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || value.trim() === '') return [];
  const trimmed = value.trim();
  if (trimmed.startsWith('[') && trimmed.endsWith(']')) {
    const inner = trimmed.slice(1, -1).trim();
    if (inner.startsWith('"')) {
      try {
        return (JSON.parse(trimmed) as unknown[]).map(String);
      } catch {
        /* fall through to whitespace split */
      }
    }
    return inner.split(/[\s,]+/).filter(Boolean);
  }
  return trimmed.split(/[\s,]+/).filter(Boolean);
}
