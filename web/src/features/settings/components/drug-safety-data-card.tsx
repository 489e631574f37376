import { useQuery } from '@tanstack/react-query';
import type { CodeSetSource } from '../../../../../shared/chart/code-sets.js';
import { SettingsCard } from '../../../components/ui/settings-card.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { fetchDrugSafetySources } from '../api/settings-api.js';

function describe(source: CodeSetSource, unit: string): string {
  const parts = [`${source.count} ${unit}`];
  if (source.releaseDate) parts.push(`dated ${source.releaseDate}`);
  if (source.loadedAt) parts.push(`loaded ${source.loadedAt.slice(0, 10)}`);
  parts.push(source.kind === 'starter' ? 'built in' : 'imported');
  return parts.join(' · ');
}

/** Where the allergy and interaction checks get their data, and how current it is (README "Allergy and interaction checks"). */
export function DrugSafetyDataCard() {
  const sources = useQuery({
    queryKey: ['drug-safety-sources'],
    queryFn: ({ signal }) => fetchDrugSafetySources(signal),
    staleTime: 300_000,
  });
  return (
    <SettingsCard title="Allergy and interaction checks">
      {sources.isPending ? (
        <Spinner label="Loading the check data" />
      ) : sources.isError ? (
        <p>The check data could not be read.</p>
      ) : (
        <dl className="tw-settings__sources">
          <dt>Drug classes</dt>
          <dd>
            {sources.data.classes.label}
            <br />
            {describe(sources.data.classes, 'ingredients')}
          </dd>
          <dt>Interactions</dt>
          <dd>
            {sources.data.interactions.label}
            <br />
            {describe(sources.data.interactions, 'interactions')}
          </dd>
        </dl>
      )}
      <p>Update them with npm run import:codes (drugclass, ddi); see the README.</p>
    </SettingsCard>
  );
}
