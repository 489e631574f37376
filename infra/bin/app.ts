/**
 * The CDK app: two stacks per practice, chosen with `-c practice=<slug>` (practices/<slug>.json):
 * `Tidewell-<slug>-data` and `Tidewell-<slug>-app`, deployed in that order. `-c version=<git sha>@<ISO date>`
 * is written to both stacks' `tidewell:version` tag (`unversioned` without it).
 */
import { App } from 'aws-cdk-lib';
import { existsSync } from 'node:fs';
import { GROUPS } from '../../functions/groups.js';
import { knownPractices, loadPracticeConfig, PracticeConfigError, type PracticeConfig } from '../config/practice-config.js';
import { applyGuard } from '../lib/guard.js';
import { applyNagPacks } from '../lib/nag.js';
import { repoPath, REPO_ROOT } from '../lib/paths.js';
import { addPracticeStacks } from '../lib/practice-stack.js';
import { versionFromContext } from '../lib/stack-names.js';

const app = new App();

/** A wrong or missing practice is an operator's typo: say what exists, not where the code stopped. */
function practiceConfig(slug: string | undefined): PracticeConfig {
  try {
    if (!slug) throw new PracticeConfigError(`Choose a practice: npx cdk synth -c practice=<slug>. Known practices: ${knownPractices(REPO_ROOT).join(', ')}.`);
    return loadPracticeConfig(slug, REPO_ROOT);
  } catch (error) {
    if (!(error instanceof PracticeConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

const config = practiceConfig(app.node.tryGetContext('practice') as string | undefined);

const webDist = repoPath('web/dist');
if (!existsSync(repoPath('web/dist/index.html'))) {
  throw new Error('web/dist/index.html is missing: run `npm run build:web` before synthesizing or deploying the stack.');
}

let version: string;
try {
  version = versionFromContext(app.node.tryGetContext('version'));
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

addPracticeStacks(app, {
  config,
  groups: GROUPS,
  webDist,
  graphqlSchemaPath: repoPath('infra/graphql/schema.graphql'),
  env: { account: config.account ?? process.env.CDK_DEFAULT_ACCOUNT, region: config.region },
  version,
});

applyNagPacks(app);
applyGuard(app);
app.synth();
