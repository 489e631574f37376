import * as z from 'zod';

/**
 * The runtime configuration the stack (or the local runtime) writes next to the web build, so one
 * build serves every practice. Nothing practice-specific is compiled into the bundle.
 */
export const runtimeConfigSchema = z.object({
  apiUrl: z.string().min(1),
  graphqlUrl: z.string().min(1),
  userPoolId: z.string().min(1),
  userPoolClientId: z.string().min(1),
  cognitoEndpoint: z.string().optional(),
  region: z.string().min(1),
  local: z.boolean().optional().default(false),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

let current: RuntimeConfig | null = null;

export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const response = await fetchImpl('./config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json: HTTP ${response.status}`);
  current = runtimeConfigSchema.parse(await response.json());
  return current;
}

export function runtimeConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime configuration is read before it was loaded');
  return current;
}

export function setRuntimeConfigForTests(config: RuntimeConfig | null): void {
  current = config;
}
