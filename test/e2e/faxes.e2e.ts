import { expect } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { apiAs, PROVIDER, signIn, test } from './support/sign-in.js';

const SHOTS = 'test-results/screenshots/faxes';

test('a signed note is faxed from the new fax screen and listed until delivered; a received fax appears in the list', async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  await signIn(page, PROVIDER, '/home');
  const patient = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Fay', lastName: `Sender${stamp}`, gender: 'female', dob: '1971-02-03' });
  expect(patient.status).toBe(201);
  const patientId = String(patient.json.id);
  const note = await apiAs(page, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', status: 'DRAFT', data: { text: 'Referral for echo' }, patientId });
  const signed = await apiAs(page, 'POST', `/v1/notes/${String(note.json.noteId)}/sign`, {
    noteVersion: note.json.noteVersion,
    data: { text: 'Referral for echo', formattedText: '<p>Referral for echo</p>' },
  });
  expect(signed.status).toBe(200);

  await page.goto(`/#/messages/fax/new?patientId=${patientId}&noteId=${String(note.json.noteId)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'New fax' })).toBeVisible();
  await page.getByRole('button', { name: 'Send fax' }).click();
  await expect(page.getByRole('alert')).toHaveText('Enter a fax number');
  await page.getByLabel('Fax number', { exact: true }).fill('(541) 555-7788');
  await page.getByLabel('Cover note').fill(`Echo referral ${stamp}`);
  await page.getByRole('button', { name: 'Send fax' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Faxes' })).toBeVisible();
  await page.getByLabel('Search').fill(`Sender${stamp}`);
  const row = page.getByRole('row').filter({ hasText: `Fay Sender${stamp}` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('(541) 555-7788');
  await expect(row).toContainText('Delivered', { timeout: 20_000 });
  await page.screenshot({ path: `${SHOTS}/fax-sent.png`, fullPage: true });

  // A received fax from an unknown number, simulated on the local fax loopback.
  const inbound = await page.request.post('/local/fax/inbound', { data: { from: '+12065550177' } });
  expect(inbound.ok()).toBe(true);
  await page.getByLabel('Search').fill('2065550177');
  const received = page.getByRole('row').filter({ hasText: '(206) 555-0177' });
  await expect(received.first()).toContainText('Received');
  await expect(received.first()).toContainText('Not matched');
  await page.screenshot({ path: `${SHOTS}/fax-received.png`, fullPage: true });
});

test('a drive file named in fileKeys is listed on the new fax screen and sent after the letter', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  await signIn(page, PROVIDER, '/home');
  const patient = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Flo', lastName: `Files${stamp}`, gender: 'female', dob: '1975-06-07' });
  const patientId = String(patient.json.id);
  const pdf = Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
  const presign = await apiAs(page, 'POST', '/v1/s3/files', { key: `public/fax-e2e-${stamp}/referral.pdf`, contentType: 'application/pdf', size: pdf.length });
  expect(presign.status).toBe(200);
  expect((await page.request.put(String(presign.json.signedUrl), { data: pdf, headers: { 'content-type': 'application/pdf' } })).ok()).toBe(true);

  await page.goto(`/#/messages/fax/new?patientId=${patientId}&fileKeys=${encodeURIComponent(String(presign.json.key))}`);
  await expect(page.getByRole('heading', { level: 1, name: 'New fax' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'referral.pdf' })).toBeVisible();
  await page.getByLabel('Fax number', { exact: true }).fill('(541) 555-7790');
  await page.getByRole('button', { name: 'Send fax' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Faxes' })).toBeVisible();
  await page.getByLabel('Search').fill(`Files${stamp}`);
  const row = page.getByRole('row').filter({ hasText: `Flo Files${stamp}` });
  await expect(row).toHaveCount(1);
  // The stored fax is the one-page facesheet letter followed by the file's page.
  const sent = await apiAs(page, 'GET', `/v1/faxes?query=Files${stamp}`);
  const fileKey = (sent.json.faxes as { fileKey: string }[])[0]!.fileKey;
  const signed = await apiAs(page, 'GET', `/v1/s3/files?key=${encodeURIComponent(fileKey)}`);
  const stored = await PDFDocument.load(await (await page.request.get(String(signed.json.signedUrl))).body());
  expect(stored.getPageCount()).toBe(2);
  await page.screenshot({ path: `${SHOTS}/fax-with-file.png`, fullPage: true });
});

test('the recipient is searched in the whole contact book: a contact with a fax number past the first page is picked by name', async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  await signIn(page, PROVIDER, '/home');
  const patient = await apiAs(page, 'POST', '/v1/patients', { firstName: 'Rae', lastName: `Picked${stamp}`, gender: 'female', dob: '1969-04-05' });
  const patientId = String(patient.json.id);
  // A first page of contacts without a fax number ahead of the one to pick, in name order.
  for (let i = 0; i < 60; i += 10) {
    await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        apiAs(page, 'POST', '/v2/practices/contacts', { name: `Aaa${stamp} ${i + j}`, phoneNumber: `+1458${String(5_000_000 + i + j).padStart(7, '0')}` }),
      ),
    );
  }
  const cardiology = await apiAs(page, 'POST', '/v2/practices/contacts', { name: `Zz${stamp} Cardiology`, faxNumber: '+15415557791' });
  expect(cardiology.status).toBe(201);

  await page.goto(`/#/messages/fax/new?patientId=${patientId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'New fax' })).toBeVisible();
  const recipient = page.getByRole('combobox', { name: 'Recipient' });
  await recipient.fill(`Aaa${stamp}`);
  // Contacts without a fax number are not offered.
  await expect(page.getByText('No contact with a fax number')).toBeVisible();
  await recipient.fill(`zz${stamp} card`);
  await page.getByRole('option', { name: `Zz${stamp} Cardiology (541) 555-7791` }).click();
  await expect(recipient).toHaveValue(`Zz${stamp} Cardiology (541) 555-7791`);
  await expect(page.getByLabel('Fax number', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Send fax' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Faxes' })).toBeVisible();
  await page.getByLabel('Search').fill(`Picked${stamp}`);
  const row = page.getByRole('row').filter({ hasText: `Rae Picked${stamp}` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`Zz${stamp} Cardiology (541) 555-7791`);
});
