import { NodeSha256 } from './node-sha256.js';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';

export const NOTIFICATION_TYPES = ['TASK', 'PHONE_CALL', 'SMS', 'LAB_RESULTS', 'DRAFT', 'FORM', 'FAX'] as const;
export const NOTIFICATION_STATUSES = ['UNREAD', 'UPDATED', 'READ', 'COMPLETED', 'DELETED'] as const;

/** The live-feed notification of spec shell-and-operations §3, as the AppSync schema carries it. */
export interface NotificationEvent {
  practiceId: string;
  sk: string;
  notificationId: string;
  notificationVersion?: number | null;
  isLatestVersion?: boolean | null;
  sourceId?: string | null;
  relatedTo?: string | null;
  notificationType: (typeof NOTIFICATION_TYPES)[number];
  notificationStatus: (typeof NOTIFICATION_STATUSES)[number];
  assigned?: string | null;
  previouslyAssigned?: string | null;
  author?: string | null;
  comments?: unknown;
  text?: string | null;
  urgent?: boolean | null;
  patientId?: string | null;
  createdAt: string;
  dueOn?: string | null;
  lastUpdated?: string | null;
  lastUpdatedBy?: string | null;
  /** Type-specific data (voicemailKey, from, to, noteId, faxId, ...). */
  data?: Record<string, unknown> | null;
}

export interface NotificationPublisher {
  publishCreated(notification: NotificationEvent): Promise<void>;
  publishUpdated(notification: NotificationEvent): Promise<void>;
}

/** Header carrying the local-only shared secret; the local realtime server refuses mutations without it. */
export const LOCAL_PUBLISHER_SECRET_HEADER = 'x-tidewell-local-publisher-secret';

const FIELDS = [
  'practiceId',
  'sk',
  'notificationId',
  'notificationVersion',
  'isLatestVersion',
  'sourceId',
  'relatedTo',
  'notificationType',
  'notificationStatus',
  'assigned',
  'previouslyAssigned',
  'author',
  'comments',
  'text',
  'urgent',
  'patientId',
  'createdAt',
  'dueOn',
  'lastUpdated',
  'lastUpdatedBy',
  'data',
] as const;

type MutationField = 'createNotification' | 'updateNotification';

/**
 * The whole selection matters: AppSync hands subscribers only the fields the mutation selected,
 * and filters subscriptions on practiceId from this result.
 */
export function notificationMutation(field: MutationField): string {
  const operation = field === 'createNotification' ? 'CreateNotification' : 'UpdateNotification';
  return `mutation ${operation}($input: NotificationInput!) { ${field}(input: $input) { ${FIELDS.join(' ')} } }`;
}

/** AppSync takes AWSJSON inputs as JSON strings. */
export function notificationInput(notification: NotificationEvent): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = notification[field];
    if (value === undefined) continue;
    input[field] = (field === 'data' || field === 'comments') && value !== null && typeof value !== 'string' ? JSON.stringify(value) : value;
  }
  return input;
}

export function mutationBody(field: MutationField, notification: NotificationEvent): string {
  return JSON.stringify({ query: notificationMutation(field), variables: { input: notificationInput(notification) } });
}

type Fetch = typeof fetch;

async function postGraphql(fetchImpl: Fetch, url: string, headers: Record<string, string>, body: string): Promise<void> {
  const response = await fetchImpl(url, { method: 'POST', headers, body });
  const text = await response.text();
  let parsed: { errors?: { errorType?: string; message?: string }[] } = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    /* non-JSON error bodies are reported by status below */
  }
  if (!response.ok || parsed.errors?.length) {
    const first = parsed.errors?.[0];
    throw new Error(`Notification publish failed (${response.status}): ${first?.errorType ?? ''} ${first?.message ?? ''}`.trim());
  }
}

export interface AppSyncPublisherOptions {
  /** https://<id>.appsync-api.<region>.amazonaws.com/graphql */
  url: string;
  region: string;
  credentials?: ConstructorParameters<typeof SignatureV4>[0]['credentials'];
  fetch?: Fetch;
}

/** Calls the IAM-only mutations, signed with SigV4 for the appsync service. */
export class AppSyncNotificationPublisher implements NotificationPublisher {
  private readonly signer: SignatureV4;
  private readonly fetchImpl: Fetch;

  constructor(private readonly options: AppSyncPublisherOptions) {
    this.signer = new SignatureV4({
      service: 'appsync',
      region: options.region,
      credentials: options.credentials ?? defaultProvider(),
      sha256: NodeSha256,
    });
    this.fetchImpl = options.fetch ?? fetch;
  }

  publishCreated(notification: NotificationEvent): Promise<void> {
    return this.send('createNotification', notification);
  }

  publishUpdated(notification: NotificationEvent): Promise<void> {
    return this.send('updateNotification', notification);
  }

  private async send(field: MutationField, notification: NotificationEvent): Promise<void> {
    const url = new URL(this.options.url);
    const body = mutationBody(field, notification);
    const signed = await this.signer.sign({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      headers: { host: url.host, 'content-type': 'application/json' },
      body,
    });
    await postGraphql(this.fetchImpl, url.toString(), signed.headers as Record<string, string>, body);
  }
}

export interface LocalPublisherOptions {
  url: string;
  secret: string;
  fetch?: Fetch;
}

/** Posts the same mutation to the local realtime server, which trusts only its shared secret. */
export class LocalNotificationPublisher implements NotificationPublisher {
  constructor(private readonly options: LocalPublisherOptions) {}

  publishCreated(notification: NotificationEvent): Promise<void> {
    return this.send('createNotification', notification);
  }

  publishUpdated(notification: NotificationEvent): Promise<void> {
    return this.send('updateNotification', notification);
  }

  private send(field: MutationField, notification: NotificationEvent): Promise<void> {
    const headers = { 'content-type': 'application/json', [LOCAL_PUBLISHER_SECRET_HEADER]: this.options.secret };
    return postGraphql(this.options.fetch ?? fetch, this.options.url, headers, mutationBody(field, notification));
  }
}

/**
 * APPSYNC_URL is the GraphQL endpoint in both places; APPSYNC_LOCAL_SECRET exists only in the
 * local runtime and selects the local publisher.
 */
export function notificationPublisherFromEnv(env: NodeJS.ProcessEnv = process.env): NotificationPublisher {
  const url = env.APPSYNC_URL;
  if (!url) throw new Error('APPSYNC_URL is not set');
  if (env.APPSYNC_LOCAL_SECRET) return new LocalNotificationPublisher({ url, secret: env.APPSYNC_LOCAL_SECRET });
  return new AppSyncNotificationPublisher({ url, region: env.AWS_REGION ?? 'us-east-1' });
}
