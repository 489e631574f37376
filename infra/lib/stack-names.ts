/**
 * The names a practice's two stacks go by, shared by the CDK app, the tests and the practice CLI:
 * `Tidewell-<slug>-data` (what must outlive any release) is deployed first, then `Tidewell-<slug>-app`.
 */
export function dataStackName(slug: string): string {
  return `Tidewell-${slug}-data`;
}

export function appStackName(slug: string): string {
  return `Tidewell-${slug}-app`;
}

/** Deploy order: the app stack imports the data stack's exports, so it always goes second. */
export function practiceStackNames(slug: string): readonly [data: string, app: string] {
  return [dataStackName(slug), appStackName(slug)];
}

/** The stack tag that records which release a stack runs: `<git sha>@<ISO date>` from `-c version=…`. */
export const VERSION_TAG = 'tidewell:version';
export const UNVERSIONED = 'unversioned';

/** CloudFormation stack tag values: letters, digits, spaces and `+ - = . _ : / @`, at most 256. */
const TAG_VALUE = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]{1,256}$/u;

/** The `version` context value, or `unversioned`; a value CloudFormation would refuse stops the synth here instead. */
export function versionFromContext(value: unknown): string {
  if (value === undefined || value === null || value === '') return UNVERSIONED;
  const version = String(value);
  if (!TAG_VALUE.test(version)) {
    throw new Error(
      `-c version=${version} cannot be a stack tag: use letters, digits and + - = . _ : / @ only (for example <git sha>@<ISO date>), at most 256 characters.`,
    );
  }
  return version;
}
