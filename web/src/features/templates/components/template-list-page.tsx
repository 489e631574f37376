import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Badge } from '../../../components/ui/badge.js';
import { Link } from '../../../components/ui/link.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { useTemplates } from '../api/templates-settings-api.js';
import { Page } from '../../../components/ui/page.js';
import { ClickableRow } from '../../../components/ui/clickable-row.js';
import '../templates.css';

/** /new-settings/templates: the practice's note templates (name, shortcut, status, private). `nav` is the settings tab bar. */
export function TemplateListPage({ nav }: { nav?: ReactNode }) {
  const navigate = useNavigate();
  const templates = useTemplates();
  return (
    <Page
      title="Settings"
      nav={nav}
      actions={
        <Link variant="primary" href={paths.newTemplate()}>
          New template
        </Link>
      }
    >
      <div className="tw-card">
        {templates.isPending ? (
          <Spinner label="Loading templates" />
        ) : templates.isError ? (
          <p className="tw-empty" role="alert">
            {NETWORK_ERROR_MESSAGE}
          </p>
        ) : templates.data.length === 0 ? (
          <p className="tw-empty">No templates yet. A template's shortcut inserts it in a note with '/'.</p>
        ) : (
          <div className="tw-table-wrap">
            <table className="tw-table" aria-label="Templates">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Shortcut</th>
                  <th scope="col">Status</th>
                  <th scope="col">Visibility</th>
                  <th scope="col">Placeholders</th>
                </tr>
              </thead>
              <tbody>
                {templates.data.map((t) => (
                  <ClickableRow key={t.templateId} onOpen={() => void navigate(paths.template(t.templateId))}>
                    <td>
                      <Link href={paths.template(t.templateId)}>{t.templateName}</Link>
                    </td>
                    <td className="tw-templates__mono">/{t.shortcut}</td>
                    <td>
                      <Badge tone={t.status === 'active' ? 'info' : 'neutral'}>{t.status === 'active' ? 'Active' : 'Inactive'}</Badge>
                    </td>
                    <td>{t.private ? 'Private' : 'Practice'}</td>
                    <td className="tw-templates__muted">{t.transformKeys.length ? t.transformKeys.join(', ') : '—'}</td>
                  </ClickableRow>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </Page>
  );
}
