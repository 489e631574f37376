import { beforeAll, describe, expect, it } from 'vitest';
import { api, signIn } from '../support/local-stack.js';

/** Oversized ids are refused by their schema (400) before they can reach a DynamoDB key (was 500). */
let provider: string;
const ONE_MB = 'x'.repeat(1024 * 1024);
const LONG = 'A'.repeat(3000);

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
});

describe('length limits on ids', () => {
  it.each([
    ['a 1 MB templateId', { templateId: ONE_MB, interactionId: 'n1' }],
    ['a 3,000-character templateId', { templateId: LONG, interactionId: 'n1' }],
    ['a 3,000-character interactionId', { templateId: 't1', interactionId: LONG }],
  ])('POST /v1/template-links with %s answers 400', async (_label, body) => {
    const res = await api(provider, 'POST', '/v1/template-links', body);
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toBeTruthy();
  });

  it.each([
    ['a 1 MB shortcut', { shortcut: ONE_MB }],
    ['a 3,000-character shortcut', { shortcut: LONG }],
    ['a 3,000-character patientId', { shortcut: 'soap', patientId: LONG }],
  ])('POST /v1/templates/expand-shortcut with %s answers 400', async (_label, body) => {
    const res = await api(provider, 'POST', '/v1/templates/expand-shortcut', body);
    expect(res.status).toBe(400);
  });

  it('refuses a path parameter holding the key separator or over the length limit', async () => {
    expect((await api(provider, 'GET', `/v1/notes/${encodeURIComponent('a#b')}`)).status).toBe(400);
    expect((await api(provider, 'GET', `/v1/notes/${'n'.repeat(300)}`)).status).toBe(400);
    expect((await api(provider, 'PUT', `/v1/notifications/${'n'.repeat(300)}`, {})).status).toBe(400);
  });
});
