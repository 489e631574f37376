/**
 * The runtime configuration the stack (or the local runtime) writes next to the web build, so one
 * build serves every practice. Nothing practice-specific is compiled into the bundle. It is the
 * web's own file, not an API contract, and it is checked by hand: every screen waits for it, so
 * it must not pull a schema library into the first download.
 */
export interface RuntimeConfig {
  apiUrl: string;
  graphqlUrl: string;
  userPoolId: string;
  userPoolClientId: string;
  cognitoEndpoint?: string;
  region: string;
  local: boolean;
  /** The function URL the Copilot's reply streams from (ends with '/'); absent on older stacks. */
  copilotStreamUrl?: string;
  /** The Copilot's model by name; '' when none is configured; absent on older stacks (unknown). */
  copilotModel?: string;
}

const REQUIRED = ['apiUrl', 'graphqlUrl', 'userPoolId', 'userPoolClientId', 'region'] as const;

export function parseRuntimeConfig(raw: unknown): RuntimeConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('config.json: expected an object');
  const input = raw as Record<string, unknown>;
  const text = (key: string): string => {
    const value = input[key];
    if (typeof value !== 'string' || value === '') throw new Error(`config.json: ${key} must be a non-empty string`);
    return value;
  };
  const [apiUrl, graphqlUrl, userPoolId, userPoolClientId, region] = REQUIRED.map(text);
  if (input.cognitoEndpoint !== undefined && typeof input.cognitoEndpoint !== 'string') throw new Error('config.json: cognitoEndpoint must be a string');
  if (input.local !== undefined && typeof input.local !== 'boolean') throw new Error('config.json: local must be true or false');
  if (input.copilotStreamUrl !== undefined && typeof input.copilotStreamUrl !== 'string') throw new Error('config.json: copilotStreamUrl must be a string');
  if (input.copilotModel !== undefined && typeof input.copilotModel !== 'string') throw new Error('config.json: copilotModel must be a string');
  return {
    apiUrl,
    graphqlUrl,
    userPoolId,
    userPoolClientId,
    ...(input.cognitoEndpoint !== undefined ? { cognitoEndpoint: input.cognitoEndpoint } : {}),
    region,
    local: input.local ?? false,
    ...(typeof input.copilotStreamUrl === 'string' && input.copilotStreamUrl ? { copilotStreamUrl: input.copilotStreamUrl } : {}),
    ...(typeof input.copilotModel === 'string' ? { copilotModel: input.copilotModel } : {}),
  };
}

let current: RuntimeConfig | null = null;

export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  // The default cache mode takes the page's preload of it (index.html); both the local server and
  // CloudFront answer it no-cache, so a deploy's new config.json is read on the next load.
  const response = await fetchImpl('./config.json');
  if (!response.ok) throw new Error(`config.json: HTTP ${response.status}`);
  current = parseRuntimeConfig(await response.json());
  return current;
}

export function runtimeConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime configuration is read before it was loaded');
  return current;
}

export function setRuntimeConfigForTests(config: RuntimeConfig | null): void {
  current = config;
}
