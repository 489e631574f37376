/**
 * The size and speed budgets, in one place: `npm run check:budgets` fails on the
 * deterministic ones, `npm run bench` prints every figure beside its budget, and the stack test
 * holds the resource count.
 */
export const BUDGETS = {
  /** Minified bytes of what a group Lambda loads on a cold start: check:budgets fails above it. */
  lambdaBundleBytes: 300 * 1024,
  /** A fresh process importing a bundle, median of 5 (CPU ms; see moduleInit). */
  lambdaInitMs: 60,
  /** Gzip bytes the browser downloads before each first screen (sign-in; signed-in /home). */
  webFirstScreenGzipBytes: 200 * 1024,
  /** CloudFormation resources in each synthesized practice stack, data and app alike (the hard limit is 500). */
  stackResources: 250,
  /** Patient list and search at 5,000 patients, concurrency 8, through the local API. */
  apiP95Ms: 50,
  /** Opening a full chart (200 notes on the patient, 10,000 in the practice) until it has rendered. */
  chartOpenMs: 1000,
} as const;
