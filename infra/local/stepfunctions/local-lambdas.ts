import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const LOCAL_ACCOUNT_ID = '000000000000';

export type LambdaHandler = (event: unknown, context?: unknown) => Promise<unknown> | unknown;

/** A handler module, by path from the repository root, e.g. functions/workers/schedule-target/handler.ts. */
export interface LambdaModule {
  entry: string;
  /** The exported function; default `handler`. */
  exportName?: string;
}

/** The ARN a local Lambda goes by: arn:aws:lambda:<region>:000000000000:function:<name>. */
export function localLambdaArn(name: string, region = process.env.AWS_REGION ?? 'us-east-1'): string {
  return `arn:aws:lambda:${region}:${LOCAL_ACCOUNT_ID}:function:${name}`;
}

/**
 * Lambda accepts a name, a partial ARN (account:function:name) or a full ARN, each optionally
 * with a :version or :alias qualifier; all resolve to the function's name.
 */
export function functionNameFrom(nameOrArn: string): string {
  const parts = nameOrArn.split(':');
  const at = parts.indexOf('function');
  if (at >= 0 && parts[at + 1]) return parts[at + 1];
  return parts[0];
}

/** Resolves function names to handler modules and loads them once. */
export function lambdaResolver(functions: Record<string, LambdaModule | LambdaHandler>, repoRoot: string) {
  const loaded = new Map<string, Promise<LambdaHandler>>();
  return (nameOrArn: string): Promise<LambdaHandler> => {
    const name = functionNameFrom(nameOrArn);
    const target = functions[name];
    if (!target) return Promise.reject(Object.assign(new Error(`Function not found: ${nameOrArn}`), { name: 'Lambda.ResourceNotFoundException' }));
    if (typeof target === 'function') return Promise.resolve(target);
    if (!loaded.has(name)) {
      loaded.set(
        name,
        import(pathToFileURL(resolve(repoRoot, target.entry)).href).then((module: Record<string, unknown>) => {
          const handler = module[target.exportName ?? 'handler'];
          if (typeof handler !== 'function') throw new Error(`${target.entry} does not export ${target.exportName ?? 'handler'}`);
          return handler as LambdaHandler;
        }),
      );
    }
    return loaded.get(name)!;
  };
}
