import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { eventuallyFound } from '../support/eventually.js';

export interface Received {
  field: 'onCreateNotification' | 'onUpdateNotification';
  notification: Record<string, unknown>;
  /** performance.now() when the socket delivered it (the bench measures write → subscriber with it). */
  at: number;
}

const FIELDS = 'practiceId notificationId notificationVersion isLatestVersion notificationType notificationStatus assigned text sourceId';

/**
 * Subscribes to both notification subscriptions over the runtime's AppSync realtime socket, the
 * way Amplify does (header-<base64url> subprotocol), and collects what arrives.
 */
export async function subscribeNotifications(graphqlUrl: string, token: string, practiceId: string) {
  const url = new URL(graphqlUrl);
  const auth = { host: url.host, Authorization: token };
  const header = Buffer.from(JSON.stringify(auth)).toString('base64url');
  const socket = new WebSocket(`ws://${url.host}/graphql/realtime`, ['graphql-ws', `header-${header}`]);
  const messages: Record<string, unknown>[] = [];
  const received: Received[] = [];
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as Record<string, unknown>;
    messages.push(message);
    if (message.type === 'data') {
      const data = (message.payload as { data: Record<string, Record<string, unknown>> }).data;
      const at = performance.now();
      for (const [field, notification] of Object.entries(data)) received.push({ field: field as Received['field'], notification, at });
    }
  });
  // Reads what the socket has collected; a short interval since the bench times deliveries by `at`, not by this.
  const waitFor = <T>(probe: () => T | undefined, what: string, ms = 5000): Promise<T> =>
    eventuallyFound(`${what} on the realtime socket (messages so far: ${messages.length})`, async () => probe(), { within: ms, every: 25 }).catch(
      (error: Error) => {
        throw new Error(`${error.message}; got ${JSON.stringify(messages)}`);
      },
    );
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await waitFor(() => messages.find((m) => m.type === 'connection_ack'), 'connection_ack');
  for (const [id, field] of [
    ['c', 'onCreateNotification'],
    ['u', 'onUpdateNotification'],
  ] as const) {
    const query = `subscription S($practiceId: String!) { ${field}(practiceId: $practiceId) { ${FIELDS} } }`;
    socket.send(
      JSON.stringify({ id, type: 'start', payload: { data: JSON.stringify({ query, variables: { practiceId } }), extensions: { authorization: auth } } }),
    );
    await waitFor(() => messages.find((m) => m.type === 'start_ack' && m.id === id), `start_ack ${id}`);
  }
  return {
    received,
    /** Waits for an event about one notification (and version, when given). */
    next: (field: Received['field'], notificationId: string, version?: number, ms?: number) =>
      waitFor(
        () =>
          received.find(
            (r) =>
              r.field === field &&
              r.notification.notificationId === notificationId &&
              (version === undefined || r.notification.notificationVersion === version),
          ),
        `${field} for ${notificationId}`,
        ms,
      ),
    close: () => socket.close(),
  };
}
