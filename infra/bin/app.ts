/**
 * The CDK app: one stack per practice, chosen with `-c practice=<slug>` (practices/<slug>.json).
 */
import { App } from 'aws-cdk-lib';
import { existsSync, readdirSync } from 'node:fs';
import { GROUPS } from '../../functions/groups.js';
import { loadPracticeConfig } from '../config/practice-config.js';
import { applyNagPacks } from '../lib/nag.js';
import { repoPath, REPO_ROOT } from '../lib/paths.js';
import { PracticeStack, practiceStackName } from '../lib/practice-stack.js';

const app = new App();

const slug = app.node.tryGetContext('practice') as string | undefined;
if (!slug) {
  const known = readdirSync(repoPath('practices'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''));
  throw new Error(`Choose a practice: npx cdk synth -c practice=<slug> (known: ${known.join(', ')})`);
}
const config = loadPracticeConfig(slug, REPO_ROOT);

const webDist = repoPath('web/dist');
if (!existsSync(repoPath('web/dist/index.html'))) {
  throw new Error('web/dist/index.html is missing: run `npm run build:web` before synthesizing or deploying the stack.');
}

new PracticeStack(app, practiceStackName(config.slug), {
  config,
  groups: GROUPS,
  webDist,
  graphqlSchemaPath: repoPath('infra/graphql/schema.graphql'),
  env: { account: config.account ?? process.env.CDK_DEFAULT_ACCOUNT, region: config.region },
  description: `Tidewell practice stack for ${config.practiceName}`,
  tags: { app: 'tidewell', practice: config.slug },
});

applyNagPacks(app);
app.synth();
