import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ActiveBadge } from '../../../components/ui/badge.js';
import { Link } from '../../../components/ui/link.js';
import { QueryTable } from '../../../components/ui/query-table.js';
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
        <QueryTable
          query={templates}
          items={templates.data}
          emptyText="No templates yet. A template's shortcut inserts it in a note with '/'."
          label="Templates"
          columns={['Name', 'Shortcut', 'Status', 'Visibility', 'Placeholders']}
          renderRow={(t) => (
            <ClickableRow key={t.templateId} onOpen={() => void navigate(paths.template(t.templateId))}>
              <td>
                <Link href={paths.template(t.templateId)}>{t.templateName}</Link>
              </td>
              <td className="tw-templates__mono">/{t.shortcut}</td>
              <td>
                <ActiveBadge active={t.status === 'active'} />
              </td>
              <td>{t.private ? 'Private' : 'Practice'}</td>
              <td className="tw-templates__muted">{t.transformKeys.length ? t.transformKeys.join(', ') : '—'}</td>
            </ClickableRow>
          )}
        />
      </div>
    </Page>
  );
}
