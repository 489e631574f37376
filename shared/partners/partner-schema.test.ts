import { describe, expect, it } from 'vitest';
import { deliverySignature, verifyDelivery } from '../../functions/lib/http/signed-delivery.js';
import { PartnerAppInput, partnerFrameUrl, partnerMessageAction } from './partner-schema.js';

const ORIGIN = 'https://partner.example';

describe('partner window messages', () => {
  it('hear only the partner origin: success shows the alert, closeNote closes', () => {
    expect(partnerMessageAction({ origin: ORIGIN, data: { type: 'success' } }, ORIGIN)).toEqual({ kind: 'success', message: 'Success!' });
    expect(partnerMessageAction({ origin: ORIGIN, data: { type: 'closeNote', noteId: 'n1' } }, ORIGIN)).toEqual({ kind: 'close' });
    expect(partnerMessageAction({ origin: 'https://evil.example', data: { type: 'closeNote' } }, ORIGIN)).toEqual({ kind: 'ignored', reason: 'origin' });
    expect(partnerMessageAction({ origin: 'https://partner.example.evil.example', data: { type: 'success' } }, ORIGIN)).toEqual({
      kind: 'ignored',
      reason: 'origin',
    });
    expect(partnerMessageAction({ origin: ORIGIN, data: 'closeNote' }, ORIGIN)).toEqual({ kind: 'ignored', reason: 'shape' });
  });

  it('frame the page with the note it writes to', () => {
    expect(partnerFrameUrl({ origin: ORIGIN, path: '/app', partnerAppId: 'care' }, 'n-1', 'pat-1')).toBe(
      'https://partner.example/app?partnerAppId=care&noteId=n-1&patientId=pat-1',
    );
  });

  it('accept only an origin, https or loopback http', () => {
    expect(PartnerAppInput.safeParse({ name: 'x', origin: 'https://partner.example' }).success).toBe(true);
    expect(PartnerAppInput.safeParse({ name: 'x', origin: 'http://localhost:3001' }).success).toBe(true);
    expect(PartnerAppInput.safeParse({ name: 'x', origin: 'http://partner.example' }).success).toBe(false);
    expect(PartnerAppInput.safeParse({ name: 'x', origin: 'https://partner.example/app' }).success).toBe(false);
  });
});

describe('delivery signatures', () => {
  const secret = 's'.repeat(32);
  const body = '{"deliveryId":"d-12345678"}';
  const now = 1_800_000_000_000;
  const ts = String(now / 1000);

  it('is HMAC-SHA256 over "<timestamp>.<body>", hex, written v1=', () => {
    // openssl dgst -sha256 -hmac gives the same hex for "<timestamp>.<body>" (README "Partner apps").
    expect(deliverySignature(secret, ts, body)).toBe('v1=e2a034c6d4b93ba19f4a38ff76ee326d84b6fb0396da6911f9b07c95059c9d33');
    expect(() => verifyDelivery(secret, ts, deliverySignature(secret, ts, body), body, now)).not.toThrow();
  });

  it('refuses another body, another secret, a missing header and a timestamp over five minutes away', () => {
    const sig = deliverySignature(secret, ts, body);
    expect(() => verifyDelivery(secret, ts, sig, `${body} `, now)).toThrow('The delivery signature is not valid.');
    expect(() => verifyDelivery('t'.repeat(32), ts, sig, body, now)).toThrow('The delivery signature is not valid.');
    expect(() => verifyDelivery(null, ts, sig, body, now)).toThrow('The delivery signature is not valid.');
    expect(() => verifyDelivery(secret, undefined, sig, body, now)).toThrow('The delivery signature is not valid.');
    expect(() => verifyDelivery(secret, ts, sig, body, now + 301_000)).toThrow('The delivery timestamp is too old or in the future.');
    expect(() => verifyDelivery(secret, ts, sig, body, now - 301_000)).toThrow('The delivery timestamp is too old or in the future.');
  });
});
