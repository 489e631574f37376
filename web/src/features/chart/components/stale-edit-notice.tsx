import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { Button } from '../../../components/ui/button.js';

/**
 * After a 409 on a chart item: someone else saved it since the form opened. The user's input
 * stays in the form until they choose: Reload shows the saved version in the form (their input
 * is dropped), Keep mine saves theirs over it.
 */
export function StaleEditNotice({ onReload, onKeepMine, busy }: { onReload: () => void; onKeepMine: () => void; busy: boolean }) {
  return (
    <div className="tw-chart-form__stale" role="alert">
      <p>{CHART_MESSAGES.staleVersion}</p>
      <p className="tw-chart-form__stale-hint">Your changes are still in the form. Reload shows the saved version instead; Keep mine saves yours over it.</p>
      <div className="tw-chart-form__stale-actions">
        <Button variant="secondary" onPress={onReload} isDisabled={busy}>
          Reload
        </Button>
        <Button variant="primary" onPress={onKeepMine} isPending={busy}>
          Keep mine
        </Button>
      </div>
    </div>
  );
}
