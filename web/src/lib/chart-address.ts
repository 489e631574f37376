const CHART_PATH = /^\/patients\/(?!new$)([^/]+)(\/(?!edit$|access-history$)[^/]+)*$/;

/** The patient whose chart this address (a location hash) opens, if it opens one. */
export function chartPatientOf(hash: string): string | undefined {
  const chart = CHART_PATH.exec(hash.replace(/^#/, '').split('?')[0]);
  try {
    return chart ? decodeURIComponent(chart[1]) : undefined;
  } catch {
    return undefined;
  }
}
