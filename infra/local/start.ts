import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MFA_POLICIES, type MfaPolicy } from '../config/practice-config.js';
import { startLocalRuntime } from './runtime.js';
import { DEMO_PASSWORD, DEMO_USERS } from './seed/demo-users.js';

/**
 * `npm start`: the whole product on this machine, seeded with a week of clinic life on first start.
 * PORT, HOST and TIDEWELL_DATA_DIR override the defaults; `npm start -- --empty` (or TIDEWELL_EMPTY=1)
 * starts a practice with its users only; TIDEWELL_DEMO_WEEK=0 keeps the 40 patients and catalog
 * without the week (what the e2e suite counts on). TIDEWELL_LOCAL_MFA=required|admins|optional
 * overrides the practice file's two-step sign-in rule (the MFA e2e runs its own server with required).
 */
async function main(): Promise<void> {
  const dataDir = resolve(process.env.TIDEWELL_DATA_DIR ?? '.local');
  const port = Number(process.env.PORT ?? 3000);
  // The Copilot answers out of the box from the local rule-based assistant; TIDEWELL_AI_LOCAL_ASSISTANT=0 turns it off.
  process.env.TIDEWELL_AI_LOCAL_ASSISTANT ??= '1';
  const empty = process.argv.slice(2).includes('--empty') || process.env.TIDEWELL_EMPTY === '1';
  const demoWeek = !empty && process.env.TIDEWELL_DEMO_WEEK !== '0';
  const mfa = process.env.TIDEWELL_LOCAL_MFA || undefined;
  if (mfa !== undefined && !MFA_POLICIES.includes(mfa as MfaPolicy)) throw new Error(`TIDEWELL_LOCAL_MFA must be one of ${MFA_POLICIES.join(', ')}`);
  const runtime = await startLocalRuntime({
    dataDir,
    port,
    host: process.env.HOST || undefined,
    serveWeb: true,
    seed: true,
    codeSets: true,
    empty,
    demoWeek,
    mfa: mfa as MfaPolicy | undefined,
  });
  writeFileSync(join(dataDir, 'outputs.json'), `${JSON.stringify(runtime.outputs, null, 2)}\n`);

  const width = Math.max(...DEMO_USERS.map((u) => u.email.length));
  console.log(
    [
      '',
      `Tidewell is running at ${runtime.outputs.webUrl}`,
      `  API      ${runtime.outputs.apiUrl}`,
      `  outputs  ${join(dataDir, 'outputs.json')}`,
      `  stream dead letters  ${runtime.outputs.webUrl}/local/stream/dead-letters`,
      `  sandbox carrier      ${runtime.outputs.webUrl}/local/carrier (texts sent, reply as a patient phone)`,
      `  fax loopback (local)  ${runtime.outputs.webUrl}/local/fax (Sinch Fax API v3 stand-in; POST /local/fax/inbound {from} simulates a received fax)`,
      `  telephony (local)     ${runtime.outputs.webUrl}/local/telephony (Twilio Programmable Voice stand-in; POST /local/telephony/inbound {from, voicemail} simulates an incoming call)`,
      `  DoseSpot (local stand-in)  ${runtime.outputs.webUrl}/local/dosespot (opened by ePrescribe; prescriptions sync back as DoseSpot notes)`,
      `  IntakeQ (local stand-in)   ${runtime.outputs.webUrl}/local/intakeq (forms sent to patients land here; fill one in as the patient)`,
      `  Local Google stand-in  ${runtime.outputs.webUrl}/local/google (Settings > Calendar's "Link Google Calendar" consents here)`,
      `  local partner app    ${runtime.endpoints.partnerOrigin}/app (framed by partner note windows; secrets in ${runtime.endpoints.partnerSecretsFile})`,
      `  membership (local stand-in)  ${runtime.endpoints.partnerOrigin}/membership/open (framed by the chart's Membership windows; what it took: /membership/records; a patient's card with View Invoice: /membership/card?patientId=<id>)`,
      '',
      `Demo logins (password ${DEMO_PASSWORD}):`,
      ...DEMO_USERS.map((u) => `  ${u.email.padEnd(width)}  ${u.group}${u.prescriberType ? ` · ${u.prescriberType}` : ''}`),
      '',
      'Press Ctrl-C to stop.',
    ].join('\n'),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    runtime.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
