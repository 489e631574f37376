// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { LANDING_CHART_CODE_ID, preloadLandingChartCode } from './landing-chart-code.js';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('preloadLandingChartCode', () => {
  it("preloads each listed file as the build's own preloads do: modules not run, stylesheets not applied", () => {
    document.body.innerHTML = `<script type="application/json" id="${LANDING_CHART_CODE_ID}">["./assets/chart-page-a1.js","./assets/calendar-b2.css"]</script>`;
    preloadLandingChartCode();
    const links = [...document.head.querySelectorAll('link')].map((link) => ({
      rel: link.rel,
      as: link.getAttribute('as'),
      href: link.getAttribute('href'),
      crossOrigin: link.getAttribute('crossorigin'),
    }));
    expect(links).toEqual([
      { rel: 'modulepreload', as: null, href: './assets/chart-page-a1.js', crossOrigin: '' },
      { rel: 'preload', as: 'style', href: './assets/calendar-b2.css', crossOrigin: '' },
    ]);
    expect(document.querySelectorAll('script[type="module"], link[rel="stylesheet"]')).toHaveLength(0);
  });

  it('does nothing on a page without the list (the dev server)', () => {
    preloadLandingChartCode();
    expect(document.head.querySelectorAll('link')).toHaveLength(0);
  });
});
