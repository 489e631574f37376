import { beforeEach, describe, expect, it, vi } from 'vitest';

const receiveText = vi.fn(async () => 'stored');
const applyReceipt = vi.fn(async () => 'applied');
vi.mock('../../messaging/sms-inbound.js', () => ({ receiveText, applyReceipt }));

const { handler: scheduleTarget } = await import('./handler.js');

const sns = (...messages: unknown[]) => ({
  Records: messages.map((m, i) => ({
    EventSource: 'aws:sns',
    EventVersion: '1.0',
    Sns: { MessageId: `m${i}`, Message: typeof m === 'string' ? m : JSON.stringify(m) },
  })),
});

describe('SMS topic events reaching the worker', () => {
  beforeEach(() => {
    process.env.PRACTICE_ID = 'prc_unit';
    process.env.TIDEWELL_LOG = 'silent';
    receiveText.mockClear();
    applyReceipt.mockClear();
  });

  it('hands inbound texts and receipts of an SNS event to their handlers, skipping what it does not understand', async () => {
    await scheduleTarget(
      sns(
        {
          originationNumber: '+14255550182',
          destinationNumber: '+12125550101',
          messageBody: 'Hi',
          inboundMessageId: 'in-1',
          messageKeyword: 'KEYWORD_111122223333',
        },
        { eventType: 'TEXT_DELIVERED', messageId: 'out-1', messageStatus: 'DELIVERED', context: { noteId: 'n1' } },
        'not json',
      ),
    );
    expect(receiveText).toHaveBeenCalledWith('prc_unit', expect.objectContaining({ kind: 'inbound', inboundMessageId: 'in-1', messageBody: 'Hi' }));
    expect(applyReceipt).toHaveBeenCalledWith('prc_unit', expect.objectContaining({ kind: 'receipt', messageId: 'out-1', context: { noteId: 'n1' } }));
  });

  it('lets a failure escape so Lambda retries the event and finally dead-letters it', async () => {
    receiveText.mockRejectedValueOnce(new Error('table unavailable'));
    await expect(scheduleTarget(sns({ originationNumber: '+1', destinationNumber: '+2', messageBody: 'x', inboundMessageId: 'in-2' }))).rejects.toThrow(
      'table unavailable',
    );
  });
});
