import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { can } from '../../../../../shared/permissions/permissions.js';
import { Badge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { Form } from '../../../components/ui/form.js';
import { Link } from '../../../components/ui/link.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { displayUserName, useCurrentUser } from '../../../lib/practice.js';
import { actorOf } from '../../../lib/permissions.js';
import { showToast } from '../../../lib/toasts.js';
import { useResetTeamMemberMfa, useSaveTeamMember, useTeam, type TeamMember } from '../api/settings-api.js';
import { groupLabel, PERMISSION_GROUPS, PRESCRIBER_TYPES, statusLabel, USER_STATUSES } from '../team-rules.js';
import { SettingsNav } from './settings-nav.js';
import { Page } from '../../../components/ui/page.js';
import '../settings.css';

/** /new-settings/team/{userId}: one team member; admins edit, everyone else reads. */
export function TeamMemberPage() {
  const { userId = '' } = useParams();
  const team = useTeam();
  const me = useCurrentUser().data;
  const user = team.data?.find((u) => u.userId === userId);
  return (
    <Page title="Settings" nav={<SettingsNav />}>
      {team.isPending ? (
        <Spinner />
      ) : !user ? (
        <div className="tw-card tw-settings__card">
          <p>This user is not a member of this practice.</p>
          <Link href={paths.team()}>Back to the team</Link>
        </div>
      ) : (
        <MemberCard key={JSON.stringify(user)} user={user} canEdit={can(actorOf(me), 'practice.settings.change')} />
      )}
    </Page>
  );
}

const options = (values: readonly string[], label: (v: string) => string) => values.map((v) => ({ id: v, label: label(v) }));

function MemberCard({ user, canEdit }: { user: TeamMember; canEdit: boolean }) {
  const save = useSaveTeamMember(user.userId);
  const [values, setValues] = useState({
    firstName: user.firstName,
    lastName: user.lastName,
    educationDegree: user.educationDegree ?? '',
    npiNumber: user.npiNumber ?? '',
    cellNumber: user.cellNumber ?? '',
    permissionGroup: user.permissionGroup as string,
    userStatus: user.userStatus ?? 'active',
    veradigmUserType: user.veradigmUserType ?? '',
    doseSpotUserId: user.doseSpotUserId ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: keyof typeof values) => (value: string | null) => {
    setValues((v) => ({ ...v, [field]: value ?? '' }));
    // A server error stays on its input (and the browser refuses to submit) until the form drops it.
    setErrors((e) => (field in e ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== field)) : e));
  };

  const submit = async () => {
    try {
      await save.mutateAsync({
        npiNumber: values.npiNumber.trim() || null,
        permissionGroup: values.permissionGroup as TeamMember['permissionGroup'],
        userStatus: values.userStatus,
        veradigmUserType: values.veradigmUserType || null,
        doseSpotUserId: values.doseSpotUserId.trim() || null,
      });
      setErrors({});
      showToast('Team member saved', { tone: 'success' });
    } catch (error) {
      const fieldErrors = isApiError(error) ? error.fieldErrors : {};
      setErrors(fieldErrors);
      // Field errors are said next to their fields; a toast carries anything else.
      if (Object.keys(fieldErrors).length === 0) showToast(error instanceof Error ? error.message : 'The team member could not be saved', { tone: 'error' });
    }
  };

  return (
    <div className="tw-card tw-settings__card">
      <div className="tw-card__header">
        <h2 className="tw-card__title">
          {displayUserName(user)} <Badge tone="neutral">{statusLabel(user.userStatus)}</Badge>
        </h2>
        <span className="tw-settings__muted">{user.emailAddress}</span>
      </div>
      {!canEdit ? <p className="tw-settings__muted tw-settings__note">Only practice admins can change team members.</p> : null}
      <Form
        validationErrors={errors}
        className="tw-settings__form tw-settings__grid"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <TextField label="First name" name="firstName" value={values.firstName} onChange={set('firstName')} isReadOnly />
        <TextField label="Last name" name="lastName" value={values.lastName} onChange={set('lastName')} isReadOnly />
        <TextField label="Degree" name="educationDegree" value={values.educationDegree} onChange={set('educationDegree')} isReadOnly />
        <TextField label="NPI" name="npiNumber" inputMode="numeric" value={values.npiNumber} onChange={set('npiNumber')} isReadOnly={!canEdit} />
        <TextField label="Cell number" name="cellNumber" inputMode="tel" value={values.cellNumber} onChange={set('cellNumber')} isReadOnly />
        <Select
          label="Permission group"
          name="permissionGroup"
          options={options(PERMISSION_GROUPS, groupLabel)}
          value={values.permissionGroup}
          onChange={set('permissionGroup')}
          isDisabled={!canEdit}
        />
        <Select
          label="Status"
          name="userStatus"
          options={options(USER_STATUSES, statusLabel)}
          value={values.userStatus}
          onChange={set('userStatus')}
          isDisabled={!canEdit}
        />
        <Select
          label="Prescriber type"
          name="veradigmUserType"
          options={options(PRESCRIBER_TYPES, (v) => v)}
          value={values.veradigmUserType || null}
          onChange={set('veradigmUserType')}
          isDisabled={!canEdit}
        />
        <TextField
          label="DoseSpot user ID"
          name="doseSpotUserId"
          inputMode="numeric"
          description="The clinic's DoseSpot user for this prescriber, from DoseSpot's clinic settings"
          value={values.doseSpotUserId}
          onChange={set('doseSpotUserId')}
          isReadOnly={!canEdit}
        />
        {canEdit ? (
          <div className="tw-settings__actions tw-settings__span">
            <Button variant="primary" type="submit" isPending={save.isPending}>
              Save
            </Button>
          </div>
        ) : null}
      </Form>
      {canEdit ? <MfaReset user={user} /> : null}
    </div>
  );
}

export const MFA_RESET_TEXT = {
  button: 'Reset two-step sign-in',
  title: 'Reset two-step sign-in?',
  body: (name: string) =>
    `${name}'s authenticator app stops working for Tidewell. Where the practice requires two-step sign-in, they set up a new one at their next sign-in.`,
  done: 'Two-step sign-in reset',
} as const;

/** A lost phone: the admin turns the member's authenticator app off (audited on the server). */
function MfaReset({ user }: { user: TeamMember }) {
  const reset = useResetTeamMemberMfa(user.userId);
  const [confirming, setConfirming] = useState(false);
  const confirm = async () => {
    try {
      await reset.mutateAsync();
      setConfirming(false);
      showToast(MFA_RESET_TEXT.done, { tone: 'success' });
    } catch (error) {
      setConfirming(false);
      showToast(error instanceof Error ? error.message : 'Two-step sign-in could not be reset. Try again.', { tone: 'error' });
    }
  };
  return (
    <div className="tw-settings__actions">
      <Button variant="secondary" onPress={() => setConfirming(true)}>
        {MFA_RESET_TEXT.button}
      </Button>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={MFA_RESET_TEXT.title}
        confirmLabel="Reset"
        tone="danger"
        isPending={reset.isPending}
        onConfirm={() => void confirm()}
      >
        <p>{MFA_RESET_TEXT.body(displayUserName(user))}</p>
      </ConfirmDialog>
    </div>
  );
}
