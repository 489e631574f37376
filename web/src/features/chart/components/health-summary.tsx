import { useMemo } from 'react';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { clearFormDrafts } from '../../../lib/form-drafts.js';
import { UNSAVED_CHANGES_MESSAGE, useUnsavedChangesBlocker } from '../../../lib/unsaved-changes.js';
import { useTouchScreen } from '../../../lib/use-media-query.js';
import { useFeatureFlags } from '../api/chart-api.js';
import '../chart.css';
import { SectionPanel } from './section-panel.js';
import { allergiesDefinition } from '../sections/allergies.js';
import { conditionsDefinition } from '../sections/conditions.js';
import { familyHistoryDefinition } from '../sections/family-history.js';
import { generalDefinition } from '../sections/general.js';
import { medicationsDefinition } from '../sections/medications.js';
import { socialHistoryDefinition } from '../sections/social-history.js';
import { surgeriesDefinition } from '../sections/surgeries.js';
import { VaccinesPanel } from './vaccines-panel.js';

/** The patient's structured chart (spec chart-data §1): one card per section. */
export function HealthSummary({ patientId }: { patientId: string }) {
  const flags = useFeatureFlags();
  const redesign = flags.data?.clinical_problems_list_redesign === true;
  const allergies = useMemo(() => allergiesDefinition(redesign), [redesign]);
  const conditions = useMemo(() => conditionsDefinition(redesign), [redesign]);
  const touch = useTouchScreen();

  return (
    <section className="tw-chart" aria-labelledby="health-summary-title">
      <header className="tw-chart__header">
        <h2 id="health-summary-title" className="tw-chart__title">
          Health Summary
        </h2>
        {/* Touch screens show an Edit button on each card instead. */}
        {touch ? null : <span className="tw-chart-muted">Double-click a card to edit it.</span>}
      </header>
      {flags.isPending ? null : (
        <div className="tw-chart__grid" data-layout={redesign ? 'redesign' : 'classic'}>
          <SectionPanel def={generalDefinition} patientId={patientId} />
          <SectionPanel def={allergies} patientId={patientId} />
          <SectionPanel def={medicationsDefinition} patientId={patientId} />
          <VaccinesPanel patientId={patientId} />
          <SectionPanel def={conditions} patientId={patientId} />
          <SectionPanel def={surgeriesDefinition} patientId={patientId} />
          <SectionPanel def={familyHistoryDefinition} patientId={patientId} />
          <SectionPanel def={socialHistoryDefinition} patientId={patientId} />
        </div>
      )}
      <UnsavedChangesPrompt />
    </section>
  );
}

/** Asks before an in-app navigation leaves dirty forms behind (the tab-close case is the browser's own prompt). */
function UnsavedChangesPrompt() {
  const blocker = useUnsavedChangesBlocker();
  return (
    <ConfirmDialog
      isOpen={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset();
      }}
      title="Leave this page?"
      confirmLabel="Leave"
      tone="danger"
      onConfirm={() => {
        // Leaving was chosen: the forms' kept drafts go with their text.
        clearFormDrafts('chart:');
        blocker.proceed?.();
      }}
    >
      {UNSAVED_CHANGES_MESSAGE}
    </ConfirmDialog>
  );
}
