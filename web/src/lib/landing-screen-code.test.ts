// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { LANDING_SCREEN_CODE_ID, landingScreenOf, LINKS_PER_TASK, preloadLandingScreenCode } from './landing-screen-code.js';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

const links = () =>
  [...document.head.querySelectorAll('link')].map((link) => ({
    rel: link.rel,
    as: link.getAttribute('as'),
    href: link.getAttribute('href'),
    crossOrigin: link.getAttribute('crossorigin'),
  }));

describe('landingScreenOf', () => {
  it('names the dashboard and a chart, and nothing else', () => {
    expect(['', '#', '#/', '#/home', '#/home?x=1'].map(landingScreenOf)).toEqual(['home', 'home', 'home', 'home', 'home']);
    expect(['#/patients/pat-0001', '#/patients/pat-0001/notes'].map(landingScreenOf)).toEqual(['chart', 'chart']);
    expect(['#/patients', '#/patients/new', '#/patients/pat-0001/edit', '#/tasks', '#/homework'].map(landingScreenOf)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('preloadLandingScreenCode', () => {
  it("preloads the screen's listed files as the build's own preloads do: modules not run, stylesheets not applied", async () => {
    document.body.innerHTML = `<script type="application/json" id="${LANDING_SCREEN_CODE_ID}">{"chart":["./assets/chart-page-a1.js","./assets/calendar-b2.css"],"home":["./assets/dashboard-c3.js"]}</script>`;
    await preloadLandingScreenCode('chart');
    expect(links()).toEqual([
      { rel: 'modulepreload', as: null, href: './assets/chart-page-a1.js', crossOrigin: '' },
      { rel: 'preload', as: 'style', href: './assets/calendar-b2.css', crossOrigin: '' },
    ]);
    expect(document.querySelectorAll('script[type="module"], link[rel="stylesheet"]')).toHaveLength(0);
  });

  it('adds a few links at a time, each batch in a task of its own, the first too', async () => {
    const files = Array.from({ length: LINKS_PER_TASK * 2 + 3 }, (_, i) => `./assets/chunk-${i}.js`);
    document.body.innerHTML = `<script type="application/json" id="${LANDING_SCREEN_CODE_ID}">${JSON.stringify({ chart: files })}</script>`;
    const done = preloadLandingScreenCode('chart');
    expect(links()).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(links()).toHaveLength(LINKS_PER_TASK);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(links()).toHaveLength(LINKS_PER_TASK * 2);
    await done;
    expect(links().map((link) => link.href)).toEqual(files);
  });

  it('does nothing on a page without the lists (the dev server)', async () => {
    await preloadLandingScreenCode('home');
    expect(links()).toEqual([]);
  });
});
