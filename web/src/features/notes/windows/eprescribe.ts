import { DOSESPOT_MESSAGES } from '../../../../../shared/partners/dosespot-messages.js';
import { doseSpotSsoUrl, syncDoseSpot } from '../api/dosespot-api.js';
import { showToast, toastQueue, withServerText } from '../../../lib/toasts.js';

/** How often the chart looks whether DoseSpot's tab was closed, to bring its prescriptions back. */
const TAB_CHECK_MS = 1_000;

/**
 * Spec shell §2.6 ePrescribe: DoseSpot in a new tab, signed in by its single sign-on URL ('Signing
 * into DoseSpot' while the URL is made). The tab is opened at the click, before the request, so the
 * browser does not block it as a popup. When the tab closes, or the chart gets focus back, the
 * patient's DoseSpot prescriptions are synced into the chart.
 */
export async function openEPrescribe(patientId: string | null, onSynced: () => void, openedTab?: Window | null): Promise<void> {
  // A tab the caller opened at its own click (the before-e-prescribing step) is used as it is.
  const tab = openedTab === undefined ? window.open('about:blank', '_blank') : openedTab;
  const loading = showToast(DOSESPOT_MESSAGES.signingIn);
  try {
    const ssoUrl = await doseSpotSsoUrl(patientId);
    toastQueue.close(loading);
    if (tab) {
      // DoseSpot's page gets no handle on the chart.
      tab.opener = null;
      tab.location.href = ssoUrl;
    } else {
      window.open(ssoUrl, '_blank', 'noopener,noreferrer');
    }
    showToast(DOSESPOT_MESSAGES.signedIn, { tone: 'success' });
  } catch (error) {
    toastQueue.close(loading);
    tab?.close();
    showToast(withServerText(DOSESPOT_MESSAGES.failed, error), { tone: 'error' });
    return;
  }
  if (!patientId) return;
  let syncing = false;
  const sync = () => {
    if (syncing) return;
    syncing = true;
    void syncDoseSpot(patientId)
      .then((result) => {
        if (result.created > 0) onSynced();
      })
      .catch(() => undefined)
      .finally(() => {
        syncing = false;
      });
  };
  const onFocus = () => sync();
  window.addEventListener('focus', onFocus);
  const timer = window.setInterval(() => {
    if (tab && !tab.closed) return;
    window.clearInterval(timer);
    window.removeEventListener('focus', onFocus);
    sync();
  }, TAB_CHECK_MS);
}
