/**
 * Amplify v6 derives the realtime socket for a custom-domain GraphQL endpoint by appending
 * `/realtime` and forcing `wss://` (api-graphql, getRealtimeEndpointUrl). The local runtime serves
 * plain http on one origin, so when the GraphQL URL itself is http:// the socket Amplify opens for
 * it is sent to ws:// on that same origin. Nothing else is touched, and https endpoints (AWS) are
 * left alone, so the same subscription code runs in both places.
 */
type WebSocketConstructor = typeof WebSocket;

const installed = new Set<string>();

export function localRealtimeUrl(graphqlUrl: string, socketUrl: string): string {
  const graphql = new URL(graphqlUrl);
  if (graphql.protocol !== 'http:') return socketUrl;
  const socket = new URL(socketUrl);
  const realtimePath = `${graphql.pathname.replace(/\/$/, '')}/realtime`;
  if (socket.protocol !== 'wss:' || socket.host !== graphql.host || socket.pathname !== realtimePath) return socketUrl;
  socket.protocol = 'ws:';
  return socket.toString();
}

export function installLocalRealtimeRewrite(graphqlUrl: string): void {
  if (new URL(graphqlUrl).protocol !== 'http:' || installed.has(graphqlUrl)) return;
  const Original: WebSocketConstructor | undefined = globalThis.WebSocket;
  if (!Original) return;
  installed.add(graphqlUrl);
  class LocalRealtimeWebSocket extends Original {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(localRealtimeUrl(graphqlUrl, String(url)), protocols);
    }
  }
  globalThis.WebSocket = LocalRealtimeWebSocket;
}
