import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUPS, type GroupDefinition } from '../../functions/groups.js';
import { loadPracticeConfig, type PracticeConfig } from '../../infra/config/practice-config.js';
import { applyNagPacks } from '../../infra/lib/nag.js';
import { repoPath, REPO_ROOT } from '../../infra/lib/paths.js';
import { PracticeStack, practiceStackName } from '../../infra/lib/practice-stack.js';

/** A stand-in for web/dist so the stack tests do not depend on a web build. */
function fakeWebDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tidewell-web-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("tidewell")');
  return dir;
}

export interface SynthesizedPractice {
  app: App;
  stack: PracticeStack;
  template: Template;
  config: PracticeConfig;
  groups: readonly GroupDefinition[];
}

/** Synthesizes the demo practice's stack with both cdk-nag packs, skipping esbuild bundling for speed. */
export function synthPracticeStack(groups: readonly GroupDefinition[] = GROUPS, overrides: Partial<PracticeConfig> = {}): SynthesizedPractice {
  // No esbuild bundling and no built-in CloudFormation validation here: both run in the real
  // `npm run synth`, and skipping them keeps one synthesis around ten seconds on two cores.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const config = { ...loadPracticeConfig('demo', REPO_ROOT), ...overrides };
  const stack = new PracticeStack(app, practiceStackName(config.slug), {
    config,
    groups,
    webDist: fakeWebDist(),
    graphqlSchemaPath: repoPath('infra/graphql/schema.graphql'),
    env: { account: '111122223333', region: config.region },
  });
  applyNagPacks(app);
  const template = Template.fromStack(stack);
  return { app, stack, template, config, groups };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StackResource = { Type: string; Properties: Record<string, any> };

/** Look-ups over a synthesized template that the stack tests share. */
export function templateLookups(practice: SynthesizedPractice) {
  const resources = practice.template.toJSON().Resources as Record<string, StackResource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  /** Logical ids a value points at through Ref or Fn::GetAtt. */
  const refs = (value: unknown) => [...JSON.stringify(value).matchAll(/"(?:Ref|Fn::GetAtt)":\s*\[?"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
  const fnByDescription = (description: string) => ofType('AWS::Lambda::Function').find(([, f]) => f.Properties.Description === description)!;
  return { resources, ofType, refs, fnByDescription };
}
