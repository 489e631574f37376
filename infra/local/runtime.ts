import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GROUPS } from '../../functions/groups.js';
import { recordSignOut } from '../../functions/lib/auth/access-record.js';
import { resetDocumentClient } from '../../functions/lib/table/client.js';
import { deployedPartnerOrigins, loadPracticeConfig, type MfaPolicy } from '../config/practice-config.js';
import { createLocalHttpApi } from './api/local-http-api.js';
import { attachAsyncServices } from './async-services.js';
import { jwtAuthorizer } from './api/jwt-authorizer.js';
import { createLocalCognito } from './cognito/local-cognito.js';
import { applyPoolMfa, cognitoAdminClient, ensurePoolUser, provisionUserPool } from './cognito/provision-pool.js';
import { lockDataDir } from './data-dir-lock.js';
import { startLocalDynamo } from './dynamodb/local-dynamodb.js';
import type { LocalTableStream } from './dynamodb/stream/table-stream.js';
import type { LambdaHandler } from './stepfunctions/local-lambdas.js';
import { localAuditArchiveBucket, startLocalS3 } from './files/local-s3.js';
import { runtimeError, runtimeLog } from './runtime-log.js';
import { seedDemoCalendar } from './seed/demo-calendar.js';
import { seedDemoTemplates } from './seed/demo-templates.js';
import { DEMO_PASSWORD, DEMO_USERS } from './seed/demo-users.js';
import { practiceItem, putIfAbsent, userItem } from './seed/seed-practice.js';
import { seedPartnerApps } from './seed/seed-partner-apps.js';
import { seedDemoSales } from './seed/demo-sales.js';
import { ensureLocalPartnerSecrets, startLocalPartner, type LocalPartner } from './partner/local-partner.js';
import { createLocalDoseSpot, ensureLocalDoseSpot, LOCAL_DOSESPOT_PREFIX } from './dosespot/local-dosespot.js';
import { createLocalGoogle, ensureLocalGoogle, LOCAL_GOOGLE_PREFIX } from './google/local-google.js';
import { createLocalIntakeQ, ensureLocalIntakeQ, LOCAL_INTAKEQ_PREFIX } from './intakeq/local-intakeq.js';
import { readState, writeState } from './state.js';
import {
  createLocalHealthGorilla,
  LOCAL_HG_CLIENT_ID,
  LOCAL_HG_CLIENT_URI,
  LOCAL_HG_LAB_ORG,
  LOCAL_HG_PATH,
  LOCAL_HG_PRACTICE_ORG,
  LOCAL_HG_USER_LOGIN,
} from './labs/local-health-gorilla.js';
import { HEALTH_GORILLA_CLIENT_SECRET_ID } from '../../functions/lib/adapters/health-gorilla.js';
import { HEALTH_GORILLA_PARTNER_ID } from '../../shared/labs/lab-schema.js';
import { FAX_PARTNER_ID } from '../../shared/faxes/fax-schema.js';
import { createLocalFax, LOCAL_FAX_NUMBERS, LOCAL_FAX_PATH, LOCAL_FAX_PROJECT_ID } from './fax/local-fax.js';
import { TELEPHONY_PARTNER_ID } from '../../shared/calls/call-schema.js';
import { createLocalTelephony, LOCAL_TELEPHONY_ACCOUNT_SID, LOCAL_TELEPHONY_NUMBERS, LOCAL_TELEPHONY_PATH } from './telephony/local-telephony.js';
import { contentSecurityPolicy } from '../lib/web-security-headers.js';
import { staticWeb, webOriginHeaders } from './web/static-web.js';
import { webBuildIsStale } from './web/web-build-freshness.js';
import { LOCAL_ASSISTANT_PATH, localAssistantHandler } from './ai/local-assistant.js';
import { chatModelFromEnv, LOCAL_RULES_MODEL } from '../../functions/lib/adapters/chat-model.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LOCAL_ACCOUNT_ID = '000000000000';

/** The same names a deployed stack exports (`cdk deploy --outputs-file`). */
export interface LocalOutputs {
  apiUrl: string;
  webUrl: string;
  graphqlUrl: string;
  userPoolId: string;
  userPoolClientId: string;
  cognitoEndpoint: string;
  region: string;
  filesBucket: string;
  copilotStreamUrl: string;
}

export interface LocalRuntimeOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * Interface to listen on; default 127.0.0.1. The local pool signs tokens with a key published in
   * cognito-local's npm package, so anyone who can reach this port can mint any login: widen it
   * only on a network you trust.
   */
  host?: string;
  serveWeb?: boolean;
  seed?: boolean;
  /** Load the shipped code sets (infra/code-sets) when the practice has none yet; `npm start` does. */
  codeSets?: boolean;
  /** With seed: the practice and its users only (`npm start -- --empty`), no patients, calendar or catalog. */
  empty?: boolean;
  /**
   * With seed: a week of clinic life on top (infra/local/seed/demo-week.ts), once per data folder.
   * `npm start` asks for it; tests and the e2e suite keep the smaller seed their counts expect.
   */
  demoWeek?: boolean;
  /** Practice config slug (practices/<slug>.json); default 'demo'. */
  practice?: string;
  /** Overrides the practice file's `mfa` (tests of the 'admins' rule run the demo practice with it). */
  mfa?: MfaPolicy;
  /**
   * Another practice's identity over the config: tests that move data between two practices (a
   * FHIR import) run a second runtime with its own practice id, table and bucket names.
   */
  practiceIdentity?: { practiceId: string; slug: string; practiceName: string };
  /** How often expired items are swept (DynamoDB TTL); default 10 s. */
  ttlSweepIntervalMs?: number;
  /** Port of the local demo partner app's origin; default the next port after `port` (any free one if taken). */
  partnerPort?: number;
  /** Wraps the stream consumer Lambda as the stream invokes it (tests make it fail on purpose). */
  wrapStreamConsumer?: (handler: LambdaHandler) => LambdaHandler;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface LocalRuntime {
  outputs: LocalOutputs;
  httpServer: Server;
  /** Where the SDK reaches the local table and file store (also set in process.env for handlers). */
  endpoints: {
    dynamodb: string;
    s3: string;
    /** The audit archive in the file store (objects can be neither deleted nor replaced). */
    auditArchiveBucket: string;
    tableName: string;
    practiceId: string;
    /** Step Functions and Scheduler APIs, and the local realtime publisher's secret (never sent to the browser). */
    stepFunctions: string;
    transcriptionStateMachineArn: string;
    scheduler: string;
    schedulerGroup: string;
    realtimePublisherSecret: string;
    /** The sandbox carrier's pinpoint-sms-voice-v2 endpoint. */
    smsVoice: string;
    /** The local demo partner app's origin and the file of partner signing secrets. */
    partnerOrigin: string;
    partnerSecretsFile: string;
  };
  /** The table's change stream (what DynamoDB Streams is in AWS). */
  tableStream: LocalTableStream;
  /** Serve every request whose path is `prefix` or below it (e.g. '/graphql'); checked before the web app. */
  onRequest(prefix: string, handler: RequestHandler): void;
  /** Accept websocket upgrades whose path is `prefix` or below it. */
  onUpgrade(prefix: string, handler: UpgradeHandler): void;
  /** Run on stop(), in reverse order of registration, before the stand-ins close. */
  onStop(fn: () => void | Promise<void>): void;
  stop(): Promise<void>;
}

function underPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

export async function startLocalRuntime(opts: LocalRuntimeOptions): Promise<LocalRuntime> {
  const dataDir = resolve(opts.dataDir);
  const releaseLock = lockDataDir(dataDir);
  const practice = { ...loadPracticeConfig(opts.practice ?? 'demo', REPO_ROOT), ...opts.practiceIdentity };
  const region = practice.region;
  const tableName = `tidewell-${practice.slug}`;
  const filesBucket = `tidewell-${practice.slug}-files`;
  const auditArchiveBucket = localAuditArchiveBucket(practice.slug);
  const stops: (() => void | Promise<void>)[] = [];
  const requestHandlers: [string, RequestHandler][] = [];
  const upgradeHandlers: [string, UpgradeHandler][] = [];
  let dispatch: RequestHandler = (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Starting' }));
  };

  const httpServer = createServer((req, res) => {
    Promise.resolve(dispatch(req, res)).catch((error: unknown) => {
      runtimeError('Request failed', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Internal Server Error' }));
    });
  });
  // Node closes an idle kept-alive connection after 5 s; a client that sends on it at that moment
  // gets ECONNRESET. CloudFront and API Gateway keep connections far longer, so this does too.
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;
  httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    const match = upgradeHandlers.find(([prefix]) => underPrefix(path, prefix));
    if (match) match[1](req, socket, head);
    // Other 'upgrade' listeners may own this path; only refuse it when there are none.
    else if (httpServer.listenerCount('upgrade') === 1) socket.destroy();
  });

  let dynamo: Awaited<ReturnType<typeof startLocalDynamo>> | undefined;
  let s3: Awaited<ReturnType<typeof startLocalS3>> | undefined;
  let partner: LocalPartner | undefined;
  let stopped: Promise<void> | undefined;

  async function stop(): Promise<void> {
    stopped ??= (async () => {
      for (const fn of stops.reverse()) {
        try {
          await fn();
        } catch (error) {
          runtimeError('Stopping an attached service failed', error);
        }
      }
      httpServer.closeAllConnections();
      await new Promise<void>((done) => (httpServer.listening ? httpServer.close(() => done()) : done()));
      await partner?.stop().catch((e: unknown) => runtimeError('Stopping the local partner failed', e));
      await s3?.stop().catch((e: unknown) => runtimeError('Stopping the file store failed', e));
      await dynamo?.stop().catch((e: unknown) => runtimeError('Stopping the table failed', e));
      releaseLock();
    })();
    return stopped;
  }

  try {
    await new Promise<void>((done, fail) => {
      httpServer.once('error', fail);
      httpServer.listen(opts.port, opts.host ?? '127.0.0.1', () => done());
    });
    const port = (httpServer.address() as AddressInfo).port;
    const origin = `http://localhost:${port}`;
    const internal = `http://127.0.0.1:${port}`;

    dynamo = await startLocalDynamo({
      dataDir,
      tableName,
      ttlSweepIntervalMs: opts.ttlSweepIntervalMs ?? 10_000,
      region,
      onError: (e) => runtimeError('Table background work (TTL sweep, stream) failed', e),
    });
    s3 = await startLocalS3({
      dataDir,
      bucket: filesBucket,
      lockedBuckets: [auditArchiveBucket],
      webOrigins: [origin, internal],
      silent: process.env.TIDEWELL_LOG !== 'debug',
    });

    // What the stack gives every Lambda; handlers read only these.
    Object.assign(process.env, {
      TABLE_NAME: tableName,
      PRACTICE_ID: practice.practiceId,
      AWS_REGION: region,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      FILES_BUCKET: filesBucket,
      S3_ENDPOINT: s3.endpoint,
      // Each API answer carries the items its request read (x-tidewell-items-read), for the page-bound test and the bench.
      TIDEWELL_READ_METER: '1',
      // The audit archiver's bucket (Object Lock in AWS; the file store refuses deletes and overwrites here).
      AUDIT_ARCHIVE_BUCKET: auditArchiveBucket,
    });
    // The API is served under /api of the local origin; deployed, at the root of its own domain (no variable).
    process.env.API_BASE_PATH = '/api';
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    resetDocumentClient();

    const cognito = await createLocalCognito({
      dataDir,
      issuerDomain: `${origin}/cognito`,
      logLevel: process.env.TIDEWELL_LOG === 'debug' ? 'debug' : 'silent',
      // Sign-out everywhere and revocation end the tokens the API accepts, as they do deployed.
      onSignOut: async (user) => {
        if (user.practiceId && user.sub) await recordSignOut(user.practiceId, user.sub);
      },
    });
    // The demo partner app on a second local origin, so frames and window messages cross origins as deployed.
    const localPartnerIds = practice.partnerApps.filter((a) => a.origin === 'local').map((a) => a.partnerAppId);
    const partnerSecretsFile = ensureLocalPartnerSecrets(dataDir, [
      ...localPartnerIds,
      HEALTH_GORILLA_PARTNER_ID,
      HEALTH_GORILLA_CLIENT_SECRET_ID,
      FAX_PARTNER_ID,
      TELEPHONY_PARTNER_ID,
    ]);
    partner = await startLocalPartner({
      port: opts.partnerPort ?? (port ? port + 1 : 0),
      host: opts.host,
      appOrigin: origin,
      apiUrl: `${internal}/api`,
      secretsFile: partnerSecretsFile,
    });
    const partnerOrigins = [partner.origin, ...deployedPartnerOrigins(practice)];
    // What the stack gives the groups with partnerOrigins and partnerSecrets access (a file instead of Secrets Manager).
    Object.assign(process.env, { PARTNER_ORIGINS: partnerOrigins.join(','), PARTNER_SECRETS_FILE: partnerSecretsFile });
    // 'local' membership windows frame the local membership stand-in, served beside the local partner.
    if (practice.membershipOrigin) process.env.MEMBERSHIP_ORIGIN = practice.membershipOrigin === 'local' ? partner.origin : practice.membershipOrigin;
    else delete process.env.MEMBERSHIP_ORIGIN;
    // Health Gorilla's local stand-in on this origin; the notes group reaches it as it would the vendor.
    const labs = createLocalHealthGorilla({
      secretsFile: partnerSecretsFile,
      apiUrl: `${internal}/api`,
      enrolledNpis: DEMO_USERS.flatMap((u) => (u.npiNumber ? [u.npiNumber] : [])),
    });
    requestHandlers.push([LOCAL_HG_PATH, labs.handle]);
    stops.push(() => labs.stop());
    Object.assign(process.env, {
      HEALTH_GORILLA_URL: `${internal}${LOCAL_HG_PATH}`,
      HEALTH_GORILLA_CLIENT_ID: LOCAL_HG_CLIENT_ID,
      HEALTH_GORILLA_CLIENT_URI: LOCAL_HG_CLIENT_URI,
      HEALTH_GORILLA_USER_LOGIN: LOCAL_HG_USER_LOGIN,
      HEALTH_GORILLA_AUTHORIZED_BY: LOCAL_HG_PRACTICE_ORG,
      HEALTH_GORILLA_PERFORMER: LOCAL_HG_LAB_ORG,
      HEALTH_GORILLA_LOCAL: '1',
    });
    // The fax vendor's loopback stand-in on this origin; the files group sends through it as it would through Sinch.
    const faxCallbackUrl = `${internal}/api/v1/partner-deliveries/${FAX_PARTNER_ID}/faxes`;
    // The practice file's project and numbers (its `fax`), on the stand-in instead of Sinch; without the block, the stand-in's own.
    const faxProjectId = practice.fax?.projectId ?? LOCAL_FAX_PROJECT_ID;
    const faxNumbers = practice.fax?.numbers ?? LOCAL_FAX_NUMBERS;
    const fax = createLocalFax({
      secretsFile: partnerSecretsFile,
      callbackUrl: faxCallbackUrl,
      deliveryDelayMs: Number(process.env.TIDEWELL_FAX_DELAY_MS ?? 1500),
      projectId: faxProjectId,
      numbers: faxNumbers,
    });
    requestHandlers.push([LOCAL_FAX_PATH, fax.handle]);
    stops.push(() => fax.stop());
    Object.assign(process.env, {
      FAX_API_URL: `${internal}${LOCAL_FAX_PATH}`,
      FAX_PROJECT_ID: faxProjectId,
      FAX_CALLBACK_URL: faxCallbackUrl,
      FAX_NUMBERS: faxNumbers.join(','),
      FAX_LOCAL: '1',
    });
    // Twilio's local stand-in on this origin; the practice group places calls through it, and its callbacks reach the notes group's calls delivery route.
    const callCallbackUrl = `${internal}/api/v1/partner-deliveries/${TELEPHONY_PARTNER_ID}/calls`;
    // The practice file's account and numbers (its `telephony`), on the stand-in instead of Twilio; without the block, the stand-in's own.
    const telephonyAccountSid = practice.telephony?.accountSid ?? LOCAL_TELEPHONY_ACCOUNT_SID;
    const telephonyNumbers = practice.telephony?.numbers ?? LOCAL_TELEPHONY_NUMBERS;
    const telephony = createLocalTelephony({
      secretsFile: partnerSecretsFile,
      origin: internal,
      voiceUrl: callCallbackUrl,
      callDelayMs: Number(process.env.TIDEWELL_CALL_DELAY_MS ?? 2000),
      accountSid: telephonyAccountSid,
      numbers: telephonyNumbers,
    });
    requestHandlers.push([LOCAL_TELEPHONY_PATH, telephony.handle]);
    stops.push(() => telephony.stop());
    Object.assign(process.env, {
      TELEPHONY_API_URL: `${internal}${LOCAL_TELEPHONY_PATH}`,
      TELEPHONY_ACCOUNT_SID: telephonyAccountSid,
      TELEPHONY_CALLBACK_URL: callCallbackUrl,
      TELEPHONY_NUMBERS: telephonyNumbers.join(','),
      TELEPHONY_LOCAL: '1',
      // A call whose caller hung up during the greeting shows as missed this soon after it ends (deployed, two minutes).
      TELEPHONY_OUTCOME_WAIT_SECONDS: process.env.TIDEWELL_CALL_OUTCOME_WAIT_SECONDS ?? '3',
    });

    const webRoot = join(REPO_ROOT, 'web', 'dist');
    // The deployed policy's shape with the local origins: API, Cognito and the realtime socket are
    // on this origin ('self'); presigned file URLs go to the local file store; frames to the partners.
    const webOrigin = { contentSecurityPolicy: contentSecurityPolicy({ connect: [s3.endpoint], media: [s3.endpoint], frame: partnerOrigins }) };
    const serveStatic = opts.serveWeb ? staticWeb(webRoot, webOrigin) : undefined;
    let configJson = '{}';
    // Whether the start has finished, seeding included: /config.json answers long before (the seed
    // itself signs in through it), so whoever waits for a ready product reads /local/ready instead.
    let ready = false;
    // The API needs the pool ids, and provisioning the pool needs /cognito served first.
    const late: { api?: ReturnType<typeof createLocalHttpApi> } = {};

    dispatch = (req, res) => {
      const url = new URL(req.url ?? '/', 'http://local');
      const path = url.pathname;
      const rawQuery = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?') + 1) : '';
      if (underPrefix(path, '/cognito')) {
        req.url = (req.url ?? '/').slice('/cognito'.length) || '/';
        if (!req.url.startsWith('/')) req.url = `/${req.url}`;
        return cognito.handle(req, res);
      }
      const api = late.api;
      // A group's function URL (the ai group's streamed Copilot reply), as https://<id>.lambda-url.<region>.on.aws/.
      const functionUrl = /^\/lambda-url\/([a-z0-9-]+)(\/.*)?$/.exec(path);
      if (functionUrl && api) return api.handleFunctionUrl(functionUrl[1], req, res, functionUrl[2] ?? '/', rawQuery);
      if (underPrefix(path, '/api') && api) {
        const rawPath = (req.url ?? '/').split('?')[0].slice('/api'.length) || '/';
        return api.handle(req, res, rawPath, rawQuery);
      }
      if (path === '/local/ready') {
        res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-cache' }).end(JSON.stringify({ ready }));
        return;
      }
      if (path === '/config.json') {
        res.writeHead(200, { ...webOriginHeaders(webOrigin), 'content-type': 'application/json', 'cache-control': 'no-cache' }).end(configJson);
        return;
      }
      const attached = requestHandlers.find(([prefix]) => underPrefix(path, prefix));
      if (attached) return attached[1](req, res);
      if (serveStatic) return serveStatic(req, res, path);
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not Found' }));
    };

    const admin = cognitoAdminClient(`${internal}/cognito`, region);
    const pool = await provisionUserPool(admin, readState(dataDir), `tidewell-${practice.slug}`);
    writeState(dataDir, pool);
    const mfa = opts.mfa ?? practice.mfa;
    await applyPoolMfa(admin, pool.userPoolId, mfa);
    // What the stack gives a group with 'identity' access (and every group its MFA rule), plus the local endpoint override.
    Object.assign(process.env, { USER_POOL_ID: pool.userPoolId, COGNITO_ENDPOINT: `${internal}/cognito`, MFA_POLICY: mfa });
    // What the stack gives the ai group for its function URL, which verifies tokens itself.
    Object.assign(process.env, {
      COGNITO_ISSUER: `${origin}/cognito/${pool.userPoolId}`,
      COGNITO_JWKS_URL: `${internal}/cognito/${pool.userPoolId}/.well-known/jwks.json`,
      USER_POOL_CLIENT_ID: pool.userPoolClientId,
    });
    if (process.env.TIDEWELL_AI_LOCAL_ASSISTANT === '1' && !process.env.TIDEWELL_AI_BASE_URL) {
      requestHandlers.push([LOCAL_ASSISTANT_PATH, localAssistantHandler()]);
      Object.assign(process.env, { TIDEWELL_AI_BASE_URL: `${internal}${LOCAL_ASSISTANT_PATH}/v1`, TIDEWELL_AI_MODEL: LOCAL_RULES_MODEL });
      stops.push(() => {
        delete process.env.TIDEWELL_AI_BASE_URL;
        delete process.env.TIDEWELL_AI_MODEL;
      });
    }

    const outputs: LocalOutputs = {
      apiUrl: `${origin}/api`,
      webUrl: origin,
      graphqlUrl: `${origin}/graphql`,
      userPoolId: pool.userPoolId,
      userPoolClientId: pool.userPoolClientId,
      cognitoEndpoint: `${origin}/cognito`,
      region,
      filesBucket,
      copilotStreamUrl: `${origin}/lambda-url/ai/`,
    };
    configJson = JSON.stringify({ ...outputs, local: true, copilotModel: chatModelFromEnv()?.label.name ?? '' });

    late.api = createLocalHttpApi({
      groups: GROUPS,
      repoRoot: REPO_ROOT,
      authorize: jwtAuthorizer({
        issuer: `${origin}/cognito/${pool.userPoolId}`,
        audience: pool.userPoolClientId,
        jwksUrl: `${internal}/cognito/${pool.userPoolId}/.well-known/jwks.json`,
      }),
      accountId: LOCAL_ACCOUNT_ID,
      apiId: `local-${practice.slug}`,
      region,
    });

    const asyncServices = await attachAsyncServices(
      {
        httpServer,
        onRequest: (prefix, handler) => void requestHandlers.push([prefix, handler]),
        onStop: (fn) => void stops.push(fn),
      },
      outputs,
      {
        dataDir,
        repoRoot: REPO_ROOT,
        slug: practice.slug,
        tableName,
        tableStream: dynamo.stream,
        smsOriginationNumbers: practice.sms?.originationNumbers ?? [],
        wrapStreamConsumer: opts.wrapStreamConsumer,
      },
    );

    const doseSpotUsers: string[] = [];
    const userIds: Record<string, string> = {};
    if (opts.seed ?? true) {
      const now = new Date().toISOString();
      await putIfAbsent(practiceItem(practice, now));
      for (const user of DEMO_USERS) {
        const sub = await ensurePoolUser(admin, pool.userPoolId, { ...user, practiceId: practice.practiceId, password: DEMO_PASSWORD });
        if (user.practiceRecord !== false) await putIfAbsent(userItem(practice.practiceId, sub, user, now));
        doseSpotUsers.push(sub);
        userIds[user.email] = sub;
      }
      if (!opts.empty) {
        await seedDemoPatients(dataDir, practice.practiceId);
        await seedDemoTemplates(practice.practiceId);
        await seedDemoCalendar(practice.practiceId);
        await seedPartnerApps(practice.practiceId, practice.partnerApps, partner.origin);
        await seedDemoSales(practice.practiceId);
      }
    }
    // Keys added since a data folder was written (each backfill runs once), before the API serves.
    const keys = await import('../../functions/data/practices/backfill-keys.js');
    const backfilled = keys.describeBackfill(await keys.backfillKeys(practice.practiceId));
    if (backfilled) runtimeLog(`Backfilled page keys: ${backfilled}`);
    // The shipped ICD-10-CM, CVX and MVX releases, once per data folder (a few seconds the first time).
    if (opts.codeSets) await (await import('../code-sets/bundled.js')).loadBundledCodeSets();

    // DoseSpot's local stand-in on this origin; the demo users have DoseSpot accounts in its clinic.
    ensureLocalDoseSpot(partnerSecretsFile, internal, doseSpotUsers);
    const doseSpot = createLocalDoseSpot({ dataDir, secretsFile: partnerSecretsFile });
    requestHandlers.push([LOCAL_DOSESPOT_PREFIX, (req, res) => doseSpot.handle(req, res)]);
    // IntakeQ's local stand-in on this origin: its API for the practice group, its outbox and patient pages for people.
    ensureLocalIntakeQ(partnerSecretsFile, internal, origin);
    const intakeQ = createLocalIntakeQ({ dataDir, secretsFile: partnerSecretsFile, webhookUrl: `${internal}/api/v1/partner-deliveries/intakeq/intakes` });
    requestHandlers.push([LOCAL_INTAKEQ_PREFIX, (req, res) => intakeQ.handle(req, res)]);
    // Google's local stand-in: the consent page for people, the token and calendar endpoints for the practice group.
    ensureLocalGoogle(partnerSecretsFile, internal, origin);
    const google = createLocalGoogle({ dataDir, secretsFile: partnerSecretsFile });
    requestHandlers.push([LOCAL_GOOGLE_PREFIX, (req, res) => google.handle(req, res)]);

    if ((opts.seed ?? true) && !opts.empty && opts.demoWeek && !readState(dataDir).demoWeekSeededAt) {
      // Marked before it runs: a start interrupted half way never adds a second copy of what it wrote.
      writeState(dataDir, { demoWeekSeededAt: new Date().toISOString() });
      const started = Date.now();
      const { seedDemoWeek } = await import('./seed/demo-week.js');
      const stopping = new AbortController();
      const { result, later } = await seedDemoWeek({
        apiUrl: `${internal}/api`,
        origin: internal,
        cognitoEndpoint: outputs.cognitoEndpoint,
        region,
        userPoolClientId: pool.userPoolClientId,
        userIds,
        signal: stopping.signal,
      });
      const record = (what: string, errors: string[], complete: boolean) => {
        writeState(dataDir, { demoWeek: result.counts });
        // What it made and where each item opens in the API; read by the seed's own test.
        writeFileSync(join(dataDir, 'demo-week.json'), `${JSON.stringify({ ...result, complete }, null, 2)}\n`);
        runtimeLog(
          `Seeded ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${Object.entries(result.counts)
            .map(([k, n]) => `${n} ${k}`)
            .join(', ')}`,
        );
        for (const error of errors) runtimeError('Demo week seed', error);
      };
      record('a week of clinic life', result.errors, false);
      // The scribe's recognition finishes while the product already serves; a stop ends its wait.
      const firstErrors = result.errors.length;
      const finished = later.then(() => {
        if (!stopping.signal.aborted) record("the scribe's visit note", result.errors.slice(firstErrors), true);
      });
      stops.push(async () => {
        stopping.abort();
        await finished;
      });
    }

    if (opts.serveWeb && webBuildIsStale(REPO_ROOT)) await buildWeb();

    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'outputs.json'), `${JSON.stringify(outputs, null, 2)}\n`);
    ready = true;

    return {
      outputs,
      httpServer,
      endpoints: {
        dynamodb: dynamo.endpoint,
        s3: s3.endpoint,
        auditArchiveBucket,
        tableName,
        practiceId: practice.practiceId,
        stepFunctions: asyncServices.sfnEndpoint,
        transcriptionStateMachineArn: asyncServices.transcriptionStateMachineArn,
        scheduler: asyncServices.scheduler.endpoint,
        schedulerGroup: asyncServices.schedulerGroup,
        realtimePublisherSecret: asyncServices.realtime.publisherSecret,
        smsVoice: asyncServices.smsVoiceEndpoint,
        partnerOrigin: partner.origin,
        partnerSecretsFile,
      },
      tableStream: dynamo.stream,
      onRequest: (prefix, handler) => void requestHandlers.push([prefix, handler]),
      onUpgrade: (prefix, handler) => void upgradeHandlers.push([prefix, handler]),
      onStop: (fn) => void stops.push(fn),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Patients come from the patients area's own seed module, once per data folder. */
async function seedDemoPatients(dataDir: string, practiceId: string): Promise<void> {
  if (readState(dataDir).seededAt) return;
  const module = join(REPO_ROOT, 'infra', 'local', 'seed', 'demo-patients.ts');
  if (!existsSync(module)) return;
  const { seedDemoPatients: seed } = (await import(pathToFileURL(module).href)) as { seedDemoPatients?: (practiceId: string) => Promise<number> };
  if (typeof seed !== 'function') return;
  const count = await seed(practiceId);
  writeState(dataDir, { seededAt: new Date().toISOString() });
  runtimeLog(`Seeded ${count} demo patients`);
}

async function buildWeb(): Promise<void> {
  runtimeLog('Building the web app (web/dist is missing or older than its sources)…');
  const { build } = await import('vite');
  await build({ configFile: join(REPO_ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });
}
