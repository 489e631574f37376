export interface HttpResult {
  statusCode: number;
  headers: Record<string, string>;
  cookies: string[];
  body: Buffer;
}

const JSON_TYPE = { 'content-type': 'application/json' };

export function gatewayError(statusCode: number, message: string): HttpResult {
  return { statusCode, headers: JSON_TYPE, cookies: [], body: Buffer.from(JSON.stringify({ message })) };
}

/**
 * How API Gateway (payload 2.0) turns a Lambda result into a response: a result with a
 * statusCode is used as is; anything else is a 200 JSON body.
 */
export function toHttpResult(result: unknown): HttpResult {
  if (result !== null && typeof result === 'object' && 'statusCode' in result) {
    const r = result as { statusCode: unknown; headers?: Record<string, unknown>; cookies?: unknown; body?: unknown; isBase64Encoded?: boolean };
    if (typeof r.statusCode !== 'number' || !Number.isInteger(r.statusCode)) return gatewayError(500, 'Internal Server Error');
    const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const text = r.body === undefined || r.body === null ? '' : String(r.body);
    return {
      statusCode: r.statusCode,
      headers,
      cookies: Array.isArray(r.cookies) ? r.cookies.map(String) : [],
      body: r.isBase64Encoded ? Buffer.from(text, 'base64') : Buffer.from(text),
    };
  }
  const body = typeof result === 'string' ? result : JSON.stringify(result ?? null);
  return { statusCode: 200, headers: JSON_TYPE, cookies: [], body: Buffer.from(body) };
}
