import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUPS, type GroupDefinition } from '../../functions/groups.js';
import { loadPracticeConfig, type PracticeConfig } from '../../infra/config/practice-config.js';
import { applyNagPacks } from '../../infra/lib/nag.js';
import { repoPath, REPO_ROOT } from '../../infra/lib/paths.js';
import type { PracticeDataStack } from '../../infra/lib/data-stack.js';
import { addPracticeStacks, type PracticeAppStack } from '../../infra/lib/practice-stack.js';

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
  /** The app stack (`Tidewell-<slug>-app`). */
  stack: PracticeAppStack;
  dataStack: PracticeDataStack;
  /**
   * Both stacks as one template: the app stack's outputs, every resource of both, and each
   * Fn::ImportValue replaced by the data stack's exported Ref or Fn::GetAtt, so a test follows a
   * reference from a Lambda to the table whichever stack it crosses.
   */
  template: Template;
  appTemplate: Template;
  dataTemplate: Template;
  config: PracticeConfig;
  groups: readonly GroupDefinition[];
}

type Json = unknown;

/** Replaces each `{ "Fn::ImportValue": name }` with the value the data stack exports under that name. */
function resolveImports(value: Json, exports: Map<string, Json>): Json {
  if (Array.isArray(value)) return value.map((v) => resolveImports(v, exports));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, Json>);
    if (entries.length === 1 && entries[0][0] === 'Fn::ImportValue' && typeof entries[0][1] === 'string') {
      const exported = exports.get(entries[0][1]);
      if (exported === undefined) throw new Error(`The app stack imports ${entries[0][1]}, which the data stack does not export`);
      return exported;
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, resolveImports(v, exports)]));
  }
  return value;
}

/** The data stack's exports by name. */
export function exportsOf(dataTemplate: Template): Map<string, Json> {
  const outputs = (dataTemplate.toJSON().Outputs ?? {}) as Record<string, { Value: Json; Export?: { Name: string } }>;
  return new Map(Object.values(outputs).flatMap((o) => (o.Export ? [[o.Export.Name, o.Value] as const] : [])));
}

/** Synthesizes the demo practice's two stacks with both cdk-nag packs, skipping esbuild bundling for speed. */
export function synthPracticeStack(
  groups: readonly GroupDefinition[] = GROUPS,
  overrides: Partial<PracticeConfig> = {},
  version?: string,
): SynthesizedPractice {
  // No esbuild bundling and no built-in CloudFormation validation here: both run in the real
  // `npm run synth`, and skipping them keeps one synthesis around ten seconds on two cores.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const config = { ...loadPracticeConfig('demo', REPO_ROOT), ...overrides };
  const { app: stack, data: dataStack } = addPracticeStacks(app, {
    config,
    groups,
    webDist: fakeWebDist(),
    graphqlSchemaPath: repoPath('infra/graphql/schema.graphql'),
    env: { account: '111122223333', region: config.region },
    version,
  });
  applyNagPacks(app);
  const appTemplate = Template.fromStack(stack);
  const dataTemplate = Template.fromStack(dataStack);
  const appJson = appTemplate.toJSON();
  const merged = resolveImports({ ...appJson, Resources: { ...dataTemplate.toJSON().Resources, ...appJson.Resources } }, exportsOf(dataTemplate)) as Record<
    string,
    unknown
  >;
  const template = Template.fromJSON(merged);
  return { app, stack, dataStack, template, appTemplate, dataTemplate, config, groups };
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
