import { chromium } from '@playwright/test';
const ctx = await chromium.launchPersistentContext('/tmp/a11y/lh-profile', { executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless=new'] });
const page = await ctx.newPage();
await page.goto('http://localhost:3306/#/home');
await page.getByLabel('Email').fill('provider@demo.tidewell.local');
await page.getByLabel('Password', { exact: true }).fill('Tidewell-Demo-1!');
await page.getByRole('button', { name: 'Sign in', exact: true }).click();
await page.getByTestId('practice-name').waitFor();
await ctx.close();
