/**
 * `npm run cost -- --practice <slug> [--scale demo|5k|20k|large] [--requests run.json] [--cdk-out cdk.out]`:
 * the monthly AWS cost of a practice, from its templates (synthesized here unless --cdk-out names
 * an assembly) and the requests of a month at the scale (or a load run's counted requests).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { estimate, formatEstimate } from './estimate.js';
import { templateFacts } from './fixed.js';
import { readAssembly, synthesizePractice } from './synth.js';
import { monthlyRequests, requestsFromLoadRun, SCALES, WORKDAY, type LoadRun } from './workload.js';

function main(): void {
  const { values } = parseArgs({
    options: {
      practice: { type: 'string', default: 'demo' },
      scale: { type: 'string' },
      requests: { type: 'string' },
      'cdk-out': { type: 'string' },
    },
  });
  const scaleName = values.scale ?? (values.practice === 'demo' ? 'demo' : 'large');
  const scale = SCALES[scaleName];
  if (!scale) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}`);
  const { config, stacks } = values['cdk-out'] ? readAssembly(values.practice!, values['cdk-out']) : synthesizePractice(values.practice!);
  const facts = templateFacts(Object.values(stacks));
  let requests = monthlyRequests(scale);
  let profiles;
  let origin = 'modelled requests of a month (scripts/cost/workload.ts)';
  if (values.requests) {
    const run = JSON.parse(readFileSync(values.requests, 'utf8')) as LoadRun;
    ({ requests, profiles } = requestsFromLoadRun(run, scale, requests));
    origin = `requests counted in ${values.requests} (${run.users} users, ${run.minutes} min), scaled to ${scale.staff} staff`;
  }
  const result = estimate({ facts, scale, requests, profiles, smsNumbers: config.sms?.originationNumbers.length ?? 0 });
  const heading = [
    `Monthly AWS cost of practice ${config.slug} (${config.region}) at scale ${scale.name}: ${scale.description}.`,
    `Stacks: ${Object.keys(stacks).join(', ')}. Workday: ${WORKDAY.hours} h, ${WORKDAY.daysPerMonth} days a month. From ${origin}.`,
    `Not counted: Bedrock and Transcribe (the Copilot and scribe, billed per token and per audio minute), SES email, telephony and fax partners, support plans, taxes.`,
  ].join('\n');
  console.log(formatEstimate(result, heading));
}

try {
  main();
} catch (error) {
  console.error(`cost: ${(error as Error).message}`);
  process.exit(1);
}
