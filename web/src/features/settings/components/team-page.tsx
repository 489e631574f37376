import { useNavigate } from 'react-router-dom';
import { Badge } from '../../../components/ui/badge.js';
import { Link } from '../../../components/ui/link.js';
import { QueryTable } from '../../../components/ui/query-table.js';
import { paths } from '../../../lib/paths.js';
import { displayUserName } from '../../../lib/practice.js';
import { useTeam } from '../api/settings-api.js';
import { groupLabel, sortTeam, statusLabel } from '../team-rules.js';
import { DoseSpotSyncCard } from './dosespot-sync-card.js';
import { SettingsNav } from './settings-nav.js';
import { Page } from '../../../components/ui/page.js';
import { ClickableRow } from '../../../components/ui/clickable-row.js';
import '../settings.css';

/** /new-settings/team: everyone in the practice with status, permission group, NPI and prescriber type, and the DoseSpot sync's latest runs. */
export function TeamPage() {
  const navigate = useNavigate();
  const team = useTeam();
  return (
    <Page title="Settings" nav={<SettingsNav />}>
      <div className="tw-card">
        <QueryTable
          query={team}
          items={team.data ? sortTeam(team.data) : undefined}
          label="Team"
          loadingLabel="Loading the team"
          emptyText="No one is in the practice yet."
          className="tw-table tw-settings__table"
          columns={['Name', 'Email', 'Status', 'Permission group', 'NPI', 'Prescriber type']}
          renderRow={(user) => (
            <ClickableRow key={user.userId} onOpen={() => void navigate(paths.teamMember(user.userId))}>
              <td>
                <Link href={paths.teamMember(user.userId)}>{displayUserName(user)}</Link>
                {user.educationDegree ? <span className="tw-settings__muted">, {user.educationDegree}</span> : null}
              </td>
              <td className="tw-settings__muted">{user.emailAddress}</td>
              <td>
                <Badge tone={user.userStatus === 'deleted' ? 'danger' : user.userStatus === 'active' || !user.userStatus ? 'info' : 'warning'}>
                  {statusLabel(user.userStatus)}
                </Badge>
              </td>
              <td>{groupLabel(user.permissionGroup)}</td>
              <td className="tw-settings__mono">{user.npiNumber ?? '—'}</td>
              <td>{user.veradigmUserType ?? '—'}</td>
            </ClickableRow>
          )}
        />
      </div>
      <DoseSpotSyncCard />
    </Page>
  );
}
