/** The version a deploy writes into the stack tag: `<short commit>@<commit date, UTC ISO>`. */
import type { CliContext } from './context.js';

export interface SourceVersion {
  version: string;
  /** Uncommitted changes: what would be deployed is not exactly the commit the tag names. */
  dirty: boolean;
}

export async function sourceVersion(ctx: Pick<CliContext, 'git'>): Promise<SourceVersion> {
  const sha = await ctx.git(['rev-parse', '--short', 'HEAD']);
  const seconds = Number(await ctx.git(['log', '-1', '--format=%ct', 'HEAD']));
  if (!/^[0-9a-f]{4,40}$/.test(sha) || !Number.isFinite(seconds)) throw new Error(`git did not give a commit and date (${sha}, ${seconds}).`);
  const date = new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const status = await ctx.git(['status', '--porcelain', '--untracked-files=no']);
  return { version: `${sha}@${date}`, dirty: status.length > 0 };
}
