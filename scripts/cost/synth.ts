/**
 * The practice's two CloudFormation templates, synthesized in this process (no `cdk synth`, no
 * network, no esbuild bundling: the cost reads resource types and Lambda memory sizes, which
 * bundling does not change), or read from a cloud assembly such as cdk.out when one is given.
 */
import { App, Stack } from 'aws-cdk-lib';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUPS } from '../../functions/groups.js';
import { loadPracticeConfig, type PracticeConfig } from '../../infra/config/practice-config.js';
import { repoPath, REPO_ROOT } from '../../infra/lib/paths.js';
import { addPracticeStacks } from '../../infra/lib/practice-stack.js';
import type { CfnTemplate } from './fixed.js';

export interface PracticeTemplates {
  config: PracticeConfig;
  /** Stack name → template. */
  stacks: Record<string, CfnTemplate>;
}

/** A stand-in for web/dist: the web assets' size does not change what the stack costs to run. */
function stubWebDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tidewell-cost-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'app.js'), '');
  return dir;
}

export function synthesizePractice(slug: string): PracticeTemplates {
  const config = loadPracticeConfig(slug, REPO_ROOT);
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const { app: appStack, data } = addPracticeStacks(app, {
    config,
    groups: GROUPS,
    webDist: stubWebDist(),
    graphqlSchemaPath: repoPath('infra/graphql/schema.graphql'),
    env: { account: config.account ?? '111122223333', region: config.region },
  });
  const assembly = app.synth();
  const stacks: Record<string, CfnTemplate> = {};
  for (const stack of [data, appStack] as Stack[]) stacks[stack.stackName] = assembly.getStackByName(stack.stackName).template as CfnTemplate;
  return { config, stacks };
}

interface AssemblyManifest {
  artifacts?: Record<string, { type: string; properties?: { templateFile?: string } }>;
}

/** The practice's stacks from a synthesized cloud assembly (`npm run synth` writes cdk.out). */
export function readAssembly(slug: string, cdkOut: string): PracticeTemplates {
  const config = loadPracticeConfig(slug, REPO_ROOT);
  const manifestPath = join(cdkOut, 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run synth\` first, or leave out --cdk-out`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as AssemblyManifest;
  const stacks: Record<string, CfnTemplate> = {};
  for (const [name, artifact] of Object.entries(manifest.artifacts ?? {})) {
    if (artifact.type !== 'aws:cloudformation:stack' || !artifact.properties?.templateFile) continue;
    if (!name.startsWith(`Tidewell-${slug}-`)) continue;
    stacks[name] = JSON.parse(readFileSync(join(cdkOut, artifact.properties.templateFile), 'utf8')) as CfnTemplate;
  }
  if (!Object.keys(stacks).length) throw new Error(`${cdkOut} holds no stack of practice ${slug}`);
  return { config, stacks };
}
