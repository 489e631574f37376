/**
 * `npm run check:deploy`: the AWS limits that fail a deploy late, measured on the templates in
 * cdk.out (run `npm run synth` first). Prints each limit with its figure (the resource closest
 * to it stands for its kind) and exits 1 naming every resource over a limit.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoPath } from '../../infra/lib/paths.js';
import { checkTemplate, closestPerLimit, formatLine, type LimitLine, type Template } from './limits.js';

interface AssemblyManifest {
  artifacts?: Record<string, { type: string; properties?: { templateFile?: string } }>;
}

function main(cdkOut: string): number {
  const manifestPath = join(cdkOut, 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run synth\` first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as AssemblyManifest;
  const stacks = Object.entries(manifest.artifacts ?? {}).filter(([, a]) => a.type === 'aws:cloudformation:stack' && a.properties?.templateFile);
  if (!stacks.length) throw new Error(`${cdkOut} holds no stack: run \`npm run synth\` first`);

  const breaches: { stack: string; line: LimitLine }[] = [];
  for (const [stack, artifact] of stacks) {
    const file = join(cdkOut, artifact.properties!.templateFile!);
    const lines = checkTemplate(stack, JSON.parse(readFileSync(file, 'utf8')) as Template, statSync(file).size);
    console.log(`${stack} (${artifact.properties!.templateFile}):`);
    for (const l of closestPerLimit(lines)) console.log(`  ${formatLine(l)}`);
    breaches.push(...lines.filter((l) => !l.ok).map((line) => ({ stack, line })));
  }
  if (breaches.length) {
    console.error(`\ncheck:deploy failed: ${breaches.length} limit(s) exceeded; the deploy would fail:`);
    for (const { stack, line } of breaches) console.error(`  - ${stack}: ${formatLine(line)}`);
    return 1;
  }
  console.log('\ncheck:deploy: every deploy limit holds.');
  return 0;
}

try {
  process.exit(main(process.argv[2] ?? repoPath('cdk.out')));
} catch (error) {
  console.error(`check:deploy could not measure: ${(error as Error).message}`);
  process.exit(1);
}
