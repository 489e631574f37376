import { describe, expect, it } from 'vitest';
import { localRealtimeUrl } from './local-realtime.js';

describe('localRealtimeUrl', () => {
  const graphqlUrl = 'http://localhost:3000/graphql';

  it('sends the socket Amplify derives for a local endpoint to ws:// on the same origin', () => {
    expect(localRealtimeUrl(graphqlUrl, 'wss://localhost:3000/graphql/realtime?x-amz-user-agent=a')).toBe(
      'ws://localhost:3000/graphql/realtime?x-amz-user-agent=a',
    );
  });

  it('leaves other sockets and https endpoints alone', () => {
    expect(localRealtimeUrl(graphqlUrl, 'wss://example.com/graphql/realtime')).toBe('wss://example.com/graphql/realtime');
    expect(localRealtimeUrl(graphqlUrl, 'wss://localhost:3000/other')).toBe('wss://localhost:3000/other');
    expect(localRealtimeUrl('https://api.tidewell.example/graphql', 'wss://api.tidewell.example/graphql/realtime')).toBe(
      'wss://api.tidewell.example/graphql/realtime',
    );
  });
});
