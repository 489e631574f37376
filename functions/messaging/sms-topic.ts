import type { SNSEvent } from 'aws-lambda';
import { parseCarrierMessage } from '../lib/adapters/sms-carrier.js';
import { log } from '../lib/log.js';
import { applyReceipt, receiveText } from './sms-inbound.js';

/**
 * Subscribed to the practice's SMS topic: the carrier publishes inbound texts (two-way SMS) and
 * the configuration set's delivery events there. Locally the sandbox carrier invokes this same
 * handler with the same SNS event shape. A thrown error makes Lambda retry the event and finally
 * hand it to the dead-letter queue; each record is idempotent, so a retried batch repeats nothing.
 */
export async function handler(event: SNSEvent): Promise<void> {
  const practiceId = process.env.PRACTICE_ID;
  if (!practiceId) throw new Error('PRACTICE_ID is not set');
  for (const record of event.Records ?? []) {
    const message = parseCarrierMessage(record.Sns?.Message ?? '');
    if (!message) {
      log.warn('sms topic message not understood', { messageId: record.Sns?.MessageId ?? null });
      continue;
    }
    if (message.kind === 'inbound') {
      const outcome = await receiveText(practiceId, message);
      log.info('inbound text', { outcome });
    } else {
      const outcome = await applyReceipt(practiceId, message);
      log.info('delivery receipt', { eventType: message.eventType, outcome });
    }
  }
}
