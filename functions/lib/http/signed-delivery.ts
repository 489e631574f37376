import { createHmac, timingSafeEqual } from 'node:crypto';
import { DELIVERY_MAX_SKEW_SECONDS, PARTNER_MESSAGES } from '../../../shared/partners/partner-schema.js';
import { UnauthorizedError } from '../errors.js';

/** `v1=` + hex HMAC-SHA256(secret, `<timestamp>.<raw body>`): what a partner sends (README "Partner apps"). */
export function deliverySignature(secret: string, timestamp: string, rawBody: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/**
 * Refuses (401) a delivery whose signature is not the partner's over this exact body and
 * timestamp, or whose timestamp is more than five minutes away from now. Compared in constant time.
 */
export function verifyDelivery(secret: string | null, timestamp: string | undefined, signature: string | undefined, rawBody: string, now = Date.now()): void {
  if (!secret || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) throw new UnauthorizedError(PARTNER_MESSAGES.badSignature);
  const expected = Buffer.from(deliverySignature(secret, timestamp, rawBody));
  const given = Buffer.from(signature.trim());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new UnauthorizedError(PARTNER_MESSAGES.badSignature);
  if (Math.abs(now / 1000 - Number(timestamp)) > DELIVERY_MAX_SKEW_SECONDS) throw new UnauthorizedError(PARTNER_MESSAGES.staleTimestamp);
}
