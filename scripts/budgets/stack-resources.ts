/** CloudFormation resource count of every stack in a synthesized cloud assembly (cdk.out). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface AssemblyManifest {
  artifacts?: Record<string, { type: string; properties?: { templateFile?: string } }>;
}

export function stackResourceCounts(cdkOut: string): { stack: string; resources: number }[] {
  const manifestPath = join(cdkOut, 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run synth\` first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as AssemblyManifest;
  const stacks = Object.entries(manifest.artifacts ?? {}).filter(([, a]) => a.type === 'aws:cloudformation:stack' && a.properties?.templateFile);
  if (!stacks.length) throw new Error(`${cdkOut} holds no stack: run \`npm run synth\` first`);
  return stacks.map(([stack, artifact]) => {
    const template = JSON.parse(readFileSync(join(cdkOut, artifact.properties!.templateFile!), 'utf8')) as { Resources?: object };
    return { stack, resources: Object.keys(template.Resources ?? {}).length };
  });
}
