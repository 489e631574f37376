import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { openChart } from './support/chart.js';
import { PROVIDER, signIn, test } from './support/sign-in.js';

const FIXTURES = join(process.cwd(), 'test/fixtures/files');
const SHOTS = 'test-results/screenshots/files';

/** The viewer chunks that carry a library: none is fetched before a file of its type opens. */
const LIBRARY_CHUNKS = ['pdf-viewer', 'pdf.worker', 'docx-viewer', 'sheet-viewer', 'heic-viewer', 'libheif'] as const;

const fixtures = [
  'lab-report.pdf',
  'glucose-log.csv',
  'vitals.xlsx',
  'referral.docx',
  'wound-photo.jpg',
  'chart-scan.png',
  'exam-room-360.jpg',
  'phone-photo.heic',
  'heart-sounds.wav',
  'gait-video.webm',
  'follow-up.ics',
  'continuity-of-care.xml',
  'broken-ccd.xml',
  'visit-notes.txt',
];

function chunksRequested(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on('request', (request) => {
    const name = new URL(request.url()).pathname.split('/').pop() ?? '';
    for (const chunk of LIBRARY_CHUNKS) if (name.startsWith(`${chunk}-`) || name.startsWith(`${chunk}.`)) seen.add(chunk);
  });
  return seen;
}

async function openFile(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name, exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Download' })).toBeVisible();
  return dialog;
}

async function closeFile(page: Page, dialog: Locator, shot: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${shot}.png` });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
}

test('the practice drive: folders in the path, upload with toasts, every viewer with its library fetched only when it opens, delete rules', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const requested = chunksRequested(page);
  const folder = `Visit ${Date.now().toString(36)}`;
  await signIn(page, PROVIDER, '/files');
  await expect(page).toHaveURL(/#\/files\/public\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'File Drive' })).toBeVisible();

  // A new folder's name must not be empty.
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Folder name is required')).toBeVisible();
  await page.getByLabel('Folder name').fill(folder);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('button', { name: folder, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`#/files/public/${encodeURIComponent(folder)}/$`));

  // A blocked type never reaches the store.
  await page.getByLabel('Files to upload').setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
  await expect(page.getByText('Error uploading files').first()).toBeVisible();
  await expect(page.getByText('This file is not a supported file format').first()).toBeVisible();

  await page.getByLabel('Files to upload').setInputFiles(fixtures.map((f) => join(FIXTURES, f)));
  await expect(page.getByText('Uploading files').first()).toBeVisible();
  await expect(page.getByText('Files uploaded').first()).toBeVisible({ timeout: 30_000 });
  for (const name of fixtures) await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
  expect([...requested], 'no viewer library before a file opens').toEqual([]);
  await page.screenshot({ path: `${SHOTS}/drive-folder.png` });

  let dialog = await openFile(page, 'lab-report.pdf');
  await expect(dialog.locator('.tw-pdf-viewer[data-state=ready] canvas')).toHaveAttribute('aria-label', 'lab-report.pdf, page 1 of 1');
  const fit = await dialog
    .locator('.tw-pdf-viewer canvas')
    .evaluate((c) => ({ canvas: c.getBoundingClientRect().width, box: c.parentElement!.getBoundingClientRect().width }));
  expect(Math.abs(fit.canvas - fit.box)).toBeLessThan(2);
  expect([...requested].sort()).toEqual(['pdf-viewer', 'pdf.worker']);
  // Copy path: 'Copying to clipboard...' while the clipboard works, then the copied text, or the failure toast.
  await page.evaluate(() => {
    const w = window as unknown as { settle?: (ok: boolean) => void; copied?: string };
    navigator.clipboard.writeText = (text: string) =>
      new Promise<void>((resolve, reject) => {
        w.settle = (ok) => (ok ? ((w.copied = text), resolve()) : reject(new Error('denied')));
      });
  });
  await dialog.getByRole('button', { name: 'Copy path' }).click();
  await expect(page.getByText('Copying to clipboard...')).toBeVisible();
  await page.evaluate(() => (window as unknown as { settle: (ok: boolean) => void }).settle(true));
  await expect(page.getByText(`Copied public/${folder}/lab-report.pdf to clipboard`)).toBeVisible();
  await expect(page.getByText('Copying to clipboard...')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { copied?: string }).copied)).toBe(`public/${folder}/lab-report.pdf`);
  await page.screenshot({ path: `${SHOTS}/copy-path.png` });
  await dialog.getByRole('button', { name: 'Copy path' }).click();
  await page.evaluate(() => (window as unknown as { settle: (ok: boolean) => void }).settle(false));
  await expect(page.getByText('Failed to copy to clipboard.')).toBeVisible();
  await closeFile(page, dialog, 'viewer-pdf');

  dialog = await openFile(page, 'glucose-log.csv');
  await expect(dialog.getByRole('cell', { name: 'after lunch, large meal' })).toBeVisible();
  await expect(dialog.getByRole('columnheader', { name: 'Reading (mg/dL)' })).toBeVisible();
  await closeFile(page, dialog, 'viewer-csv');

  dialog = await openFile(page, 'vitals.xlsx');
  await expect(dialog.getByRole('cell', { name: '128' })).toBeVisible();
  expect(await dialog.locator('.tw-sheet-viewer').evaluate((el) => getComputedStyle(el).minHeight)).toBe('650px');
  await dialog.getByRole('button', { name: 'Medications' }).click();
  await expect(dialog.getByRole('cell', { name: 'Metformin' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Medications' })).toHaveAttribute('aria-pressed', 'true');
  expect(requested.has('sheet-viewer')).toBe(true);
  await closeFile(page, dialog, 'viewer-xlsx');

  expect(requested.has('docx-viewer')).toBe(false);
  dialog = await openFile(page, 'referral.docx');
  await expect(dialog.getByRole('heading', { name: 'Referral letter' })).toBeVisible();
  await expect(dialog.getByText('I am referring Rosa Lopez')).toBeVisible();
  expect(requested.has('docx-viewer')).toBe(true);
  await closeFile(page, dialog, 'viewer-docx');

  for (const name of ['wound-photo.jpg', 'chart-scan.png']) {
    dialog = await openFile(page, name);
    const img = dialog.getByRole('img', { name });
    await expect(img).toBeVisible();
    expect(
      await img.evaluate((el: HTMLImageElement) => el.naturalWidth > 0 && el.getBoundingClientRect().width <= el.parentElement!.getBoundingClientRect().width),
    ).toBe(true);
    await closeFile(page, dialog, `viewer-${name.split('.').pop()}`);
  }

  // A phone's HEIC: libheif's WebAssembly decoder (fetched now, not before) turns it into a JPEG shown like any image.
  expect(requested.has('heic-viewer') || requested.has('libheif')).toBe(false);
  dialog = await openFile(page, 'phone-photo.heic');
  const heic = dialog.getByRole('img', { name: 'phone-photo.heic' });
  await expect(heic).toBeVisible({ timeout: 20_000 });
  await expect(dialog.locator('.tw-heic-viewer')).toHaveAttribute('data-converted-type', 'image/jpeg');
  const decoded = await heic.evaluate((el: HTMLImageElement) => {
    // testsrc2 has colour bars: a decoded frame is neither blank nor one flat colour.
    const canvas = document.createElement('canvas');
    canvas.width = el.naturalWidth;
    canvas.height = el.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(el, 0, 0);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set<number>();
    for (let i = 0; i < pixels.length; i += 4 * 97) colours.add((pixels[i]! >> 5) * 64 + (pixels[i + 1]! >> 5) * 8 + (pixels[i + 2]! >> 5));
    return { width: el.naturalWidth, height: el.naturalHeight, colours: colours.size, src: el.src.slice(0, 5) };
  });
  expect(decoded).toMatchObject({ width: 320, height: 240, src: 'blob:' });
  expect(decoded.colours).toBeGreaterThan(8);
  expect([...requested].filter((c) => c === 'heic-viewer' || c === 'libheif').sort()).toEqual(['heic-viewer', 'libheif']);
  await closeFile(page, dialog, 'viewer-heic');

  dialog = await openFile(page, 'exam-room-360.jpg');
  const pano = dialog.getByRole('img', { name: /360° view/ });
  await expect(pano).toBeVisible();
  const box = (await pano.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 200, box.y + box.height / 2 + 2000, { steps: 5 });
  await page.mouse.up();
  // 200 px left at 0.1°/px turns 20°; 2000 px down would be 200°, clamped to 85°.
  await expect(pano).toHaveAttribute('data-yaw', '20.0');
  await expect(pano).toHaveAttribute('data-pitch', '85.0');
  await pano.focus();
  await page.keyboard.press('ArrowRight');
  await expect(pano).toHaveAttribute('data-yaw', '25.0');
  await closeFile(page, dialog, 'viewer-panorama');

  dialog = await openFile(page, 'heart-sounds.wav');
  await expect(dialog.locator('.tw-media-viewer')).toHaveAttribute('data-state', 'ready');
  await expect(dialog.getByRole('status')).toHaveCount(0);
  await closeFile(page, dialog, 'viewer-wav');

  dialog = await openFile(page, 'gait-video.webm');
  await expect(dialog.locator('.tw-media-viewer')).toHaveAttribute('data-state', 'ready');
  expect(await dialog.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(320);
  await closeFile(page, dialog, 'viewer-webm');

  dialog = await openFile(page, 'follow-up.ics');
  await expect(dialog.getByText('Diabetes follow-up')).toBeVisible();
  await expect(dialog.getByText('Exam room 2')).toBeVisible();
  await closeFile(page, dialog, 'viewer-ics');

  dialog = await openFile(page, 'continuity-of-care.xml');
  await expect(dialog.getByText('Patient: Rosa Lopez')).toBeVisible();
  await expect(dialog.getByText('02/02/1970')).toBeVisible();
  const toc = dialog.getByRole('navigation', { name: 'Table of contents' });
  await expect(toc.getByRole('link')).toHaveText(['Allergies', 'Medications', 'Problems']);
  await toc.getByRole('button', { name: 'Move Problems up' }).click();
  await expect(toc.getByRole('link')).toHaveText(['Allergies', 'Problems', 'Medications']);
  await expect(dialog.getByRole('heading', { level: 3 })).toHaveText(['Allergies', 'Problems', 'Medications']);
  await toc.getByRole('checkbox', { name: 'Show Allergies' }).uncheck();
  await expect(dialog.getByRole('heading', { level: 3 })).toHaveText(['Problems', 'Medications']);
  await expect(dialog.getByRole('cell', { name: 'Penicillin' })).toHaveCount(0);
  await dialog.getByText('Patient: Rosa Lopez').click();
  await expect(dialog.getByText('02/02/1970')).toBeHidden();
  await closeFile(page, dialog, 'viewer-ccd');

  dialog = await openFile(page, 'broken-ccd.xml');
  // Damaged XML: the reason in plain words and a download, the raw text only on request.
  await expect(dialog.getByRole('alert')).toContainText('its XML is damaged or incomplete');
  await expect(dialog.getByRole('link', { name: 'Download broken-ccd.xml' })).toBeVisible();
  await expect(dialog.getByText('<ClinicalDocument><title>Unclosed')).toBeHidden();
  await dialog.getByText("Show the file's text").click();
  await expect(dialog.getByText('<ClinicalDocument><title>Unclosed')).toBeVisible();
  await closeFile(page, dialog, 'viewer-ccd-raw');

  dialog = await openFile(page, 'visit-notes.txt');
  await expect(dialog.getByText('.txt is not supported.')).toBeVisible();
  await closeFile(page, dialog, 'viewer-unsupported');

  // Moving is not there yet; folders are never deleted; a file is, after the confirmation.
  await page
    .getByRole('link', { name: 'public' })
    .or(page.getByRole('button', { name: 'public', exact: true }))
    .click();
  await page.getByRole('checkbox', { name: `Select ${folder}` }).check();
  await page.getByRole('button', { name: 'Move' }).click();
  await expect(page.getByText('The ability to move files between folders is coming soon!')).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Unable to delete folders.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await expect(page.getByRole('checkbox', { name: `Select ${folder}` })).not.toBeChecked();

  await page.getByRole('button', { name: folder, exact: true }).click();
  await page.getByRole('checkbox', { name: 'Select visit-notes.txt' }).check();
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to delete this file?' });
  await expect(confirm).toContainText('cannot be undone');
  await page.screenshot({ path: `${SHOTS}/delete-confirm.png` });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('button', { name: 'visit-notes.txt', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'lab-report.pdf', exact: true })).toBeVisible();
});

test('a document note adds a practice file from the picker panel by double click', async ({ page }) => {
  test.setTimeout(120_000);
  const folder = `Picker ${Date.now().toString(36)}`;
  await signIn(page, PROVIDER, '/files');
  await expect(page.getByRole('heading', { level: 1, name: 'File Drive' })).toBeVisible();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill(folder);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('button', { name: folder, exact: true }).click();
  await page.getByLabel('Files to upload').setInputFiles(join(FIXTURES, 'lab-report.pdf'));
  await expect(page.getByRole('button', { name: 'lab-report.pdf', exact: true })).toBeVisible();

  await openChart(page, 'pat-0003');
  await page.getByRole('button', { name: 'New interaction' }).click();
  await page.getByRole('menuitem', { name: 'Document', exact: true }).click();
  const doc = page.locator('.tw-note-window').last();
  await doc.getByText('Select Practice Files in the Cloud').click();
  await expect(doc.getByText('Double click a file to add it')).toBeVisible();
  await doc.getByRole('button', { name: folder, exact: true }).click();
  await doc.locator('.tw-drive__row', { hasText: 'lab-report.pdf' }).dblclick();
  await expect(doc.getByRole('region', { name: 'Attached files' }).getByRole('button', { name: 'lab-report.pdf', exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/picker-in-note.png` });
  await doc.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(doc.locator('.tw-note-status')).toHaveText('Signed');
  await expect(doc.getByRole('region', { name: 'Attached files' })).toContainText('lab-report.pdf');
});
