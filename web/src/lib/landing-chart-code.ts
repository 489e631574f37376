/** The id of index.html's list of the files a chart's header needs (written by the build: build-plugins.ts). */
export const LANDING_CHART_CODE_ID = 'landing-chart-code';

/**
 * A returning user landing on a chart: the chart header's code downloads beside the signed-in
 * app's, rather than once the app has run and its router asks for it. Preloaded, not run: the app
 * sets zod up before any schema module runs, and the router's own import then finds the modules
 * loaded. Without the list (the dev server) the router asks as usual.
 */
export function preloadLandingChartCode(doc: Document = document): void {
  const listed = doc.getElementById(LANDING_CHART_CODE_ID)?.textContent;
  if (!listed) return;
  for (const href of JSON.parse(listed) as string[]) {
    const link = doc.createElement('link');
    if (href.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else link.rel = 'modulepreload';
    // As the build's own preloads ask: the later import and stylesheet then take these answers.
    link.crossOrigin = '';
    link.href = href;
    doc.head.appendChild(link);
  }
}
