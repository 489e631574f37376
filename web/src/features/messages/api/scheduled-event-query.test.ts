import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScheduledEvent } from '../../../../../shared/messaging/messaging-schema.js';
import { messagingKeys } from '../../../lib/messaging.js';
import { scheduledEventQuery } from './messages-api.js';

const event = (status: ScheduledEvent['status']) =>
  ({ eventId: 'evt-1', status, when: new Date(Date.now() + 86_400_000).toISOString() }) as unknown as ScheduledEvent;

describe('a scheduled message on its page', () => {
  let client: QueryClient;
  afterEach(() => client.clear());

  /** The page's query watching `held`, then the refresh a live text makes of everything messaging. */
  async function askedAgainAfterARefresh(held: ScheduledEvent): Promise<number> {
    client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
    const queryFn = vi.fn(async () => held);
    client.setQueryData(messagingKeys.scheduledEvent('evt-1'), held);
    const observer = new QueryObserver(client, { ...scheduledEventQuery('evt-1'), queryFn });
    const stop = observer.subscribe(() => undefined);
    await client.invalidateQueries({ queryKey: messagingKeys.all });
    stop();
    return queryFn.mock.calls.length;
  }

  it('is asked for again when texts come in while it is scheduled', async () => {
    expect(await askedAgainAfterARefresh(event('active'))).toBe(1);
  });

  it('is not asked for again once cancelled: the server no longer serves it, and the page keeps the cancel’s answer', async () => {
    expect(await askedAgainAfterARefresh(event('deleted'))).toBe(0);
    expect(client.getQueryData<ScheduledEvent>(messagingKeys.scheduledEvent('evt-1'))?.status).toBe('deleted');
  });
});
