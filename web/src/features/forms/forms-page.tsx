import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormSummary } from '../../../../shared/forms/forms.js';
import { Button } from '../../components/ui/button.js';
import { Page } from '../../components/ui/page.js';
import { Spinner } from '../../components/ui/spinner.js';
import { fetchForms, fetchIntakeqSso } from './api/forms-api.js';
import { withServerText } from '../../lib/toasts.js';
import { FormMappingEditor } from './form-mapping-editor.js';
import './forms.css';

/** The stand-in `npm start` serves says so in its own pages; the link says so too. */
const isLocalStandIn = (url: string) => url.includes('/local/intakeq');

/** /forms: the practice's IntakeQ questionnaires with their mapping into the chart, and IntakeQ's own app to edit them and see every intake. */
export function FormsPage() {
  const [mapping, setMapping] = useState<FormSummary | null>(null);
  const forms = useQuery({ queryKey: ['forms', 'list'], queryFn: ({ signal }) => fetchForms(signal) });
  const sso = useQuery({ queryKey: ['forms', 'sso'], queryFn: ({ signal }) => fetchIntakeqSso(signal) });
  const appUrl = sso.data?.ssoUrl;
  return (
    <Page
      title="Forms"
      actions={
        appUrl ? (
          <a className="tw-button tw-button--secondary tw-button--md" href={appUrl} target="_blank" rel="noreferrer">
            {isLocalStandIn(appUrl) ? 'Open IntakeQ (local stand-in)' : 'Open IntakeQ'}
          </a>
        ) : null
      }
    >
      <p>
        Intake forms are sent to patients from their chart: New → Form. Submitted answers come back as the patient&apos;s form note. Each form&apos;s mapping
        says which answers go into which section of the health summary.
      </p>
      {forms.isPending ? (
        <Spinner label="Loading forms" />
      ) : forms.isError ? (
        <p role="alert">{withServerText('There was an error loading the forms.', forms.error)}</p>
      ) : forms.data.length === 0 ? (
        <p>No forms yet.</p>
      ) : (
        <ul className="tw-forms-list" aria-label="Forms">
          {forms.data.map((f) => (
            <li key={f.id} className="tw-forms-list__item">
              <span>{f.name}</span>
              <Button size="sm" aria-label={`Edit mapping of ${f.name}`} onPress={() => setMapping(f)}>
                Edit mapping
              </Button>
            </li>
          ))}
        </ul>
      )}
      {mapping ? <FormMappingEditor form={mapping} onClose={() => setMapping(null)} /> : null}
    </Page>
  );
}
