import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalFax, LOCAL_FAX_PATH, LOCAL_FAX_PROJECT_ID } from './fax/local-fax.js';
import { createLocalTelephony, LOCAL_TELEPHONY_ACCOUNT_SID, LOCAL_TELEPHONY_PATH } from './telephony/local-telephony.js';

/** The stand-ins are the accounts a practice file names (`telephony`, `fax`), not only their own defaults. */
const ACCOUNT = `AC${'ab'.repeat(16)}`;
const secrets = join(mkdtempSync(join(tmpdir(), 'tidewell-voice-fax-')), 'partner-secrets.json');
writeFileSync(secrets, JSON.stringify({ 'twilio-voice': 'voice-token', 'sinch-fax': 'key:secret' }));
const telephony = createLocalTelephony({
  secretsFile: secrets,
  origin: 'http://local',
  voiceUrl: 'http://127.0.0.1:9/none',
  callDelayMs: 10,
  accountSid: ACCOUNT,
  numbers: ['+15415550999'],
});
const fax = createLocalFax({
  secretsFile: secrets,
  callbackUrl: 'http://127.0.0.1:9/none',
  deliveryDelayMs: 10,
  projectId: 'harbor-fax',
  numbers: ['+15415550998'],
});
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer(
    (req: IncomingMessage, res: ServerResponse) => void (req.url!.startsWith(LOCAL_FAX_PATH) ? fax.handle(req, res) : telephony.handle(req, res)),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  telephony.stop();
  fax.stop();
  await new Promise((resolve) => server.close(resolve));
});

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

describe("the local voice and fax stand-ins take the practice file's accounts", () => {
  it('answers calls under the configured Twilio account only', async () => {
    const place = (account: string) =>
      fetch(`${base}${LOCAL_TELEPHONY_PATH}/2010-04-01/Accounts/${account}/Calls.json`, {
        method: 'POST',
        headers: { authorization: basic(account, 'voice-token'), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ To: '+15415553131', From: '+15415550999', Twiml: '<Response/>' }).toString(),
      });
    const placed = await place(ACCOUNT);
    expect(placed.status).toBe(201);
    expect(((await placed.json()) as { account_sid: string }).account_sid).toBe(ACCOUNT);
    expect((await place(LOCAL_TELEPHONY_ACCOUNT_SID)).status).toBe(404);
  });

  it('lists faxes under the configured Sinch project only', async () => {
    expect((await fetch(`${base}${LOCAL_FAX_PATH}/v3/projects/harbor-fax/faxes`)).status).toBe(200);
    expect((await fetch(`${base}${LOCAL_FAX_PATH}/v3/projects/${LOCAL_FAX_PROJECT_ID}/faxes`)).status).toBe(404);
  });
});
