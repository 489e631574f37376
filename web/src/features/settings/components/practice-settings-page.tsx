import { useState } from 'react';
import { FileTrigger } from 'react-aria-components';
import { FEATURE_FLAGS } from '../../../../../shared/constants/feature-flags.js';
import { can } from '../../../../../shared/permissions/permissions.js';
import { formatPhone } from '../../../../../shared/patients/phone.js';
import { isoToUsDate } from '../../../../../shared/rules/dates.js';
import { IDLE_LOCK_MINUTES_DEFAULT, IDLE_LOCK_MINUTES_MAX, IDLE_LOCK_MINUTES_MIN } from '../../../../../shared/practice/idle-lock.js';
import { Badge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { Form } from '../../../components/ui/form.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { Switch } from '../../../components/ui/switch.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError } from '../../../lib/api-error.js';
import { actorOf } from '../../../lib/permissions.js';
import { displayUserName, useCurrentUser, usePracticeMetadata } from '../../../lib/practice.js';
import { showToast } from '../../../lib/toasts.js';
import { useFeatureGates, useSaveFeatureGates, useSavePractice, useTeam, type PracticeDetails } from '../api/settings-api.js';
import { SettingsNav } from './settings-nav.js';
import { Page } from '../../../components/ui/page.js';
import '../settings.css';
import { DrugSafetyDataCard } from './drug-safety-data-card.js';

/** /new-settings/practice-metadata: practice details and feature flags; edits are for admins. */
export function PracticeSettingsPage() {
  const practice = usePracticeMetadata();
  const me = useCurrentUser().data;
  const isAdmin = can(actorOf(me), 'practice.settings.change');
  return (
    <Page title="Settings" nav={<SettingsNav />}>
      {practice.data ? <PracticeDetailsCard practice={practice.data as PracticeDetails} isAdmin={isAdmin} /> : <Spinner />}
      {practice.data ? <ScreenLockCard minutes={practice.data.idleLockMinutes ?? IDLE_LOCK_MINUTES_DEFAULT} isAdmin={isAdmin} /> : null}
      <FeatureFlagsCard isAdmin={isAdmin} />
      <DrugSafetyDataCard />
    </Page>
  );
}

function PracticeDetailsCard({ practice, isAdmin }: { practice: PracticeDetails; isAdmin: boolean }) {
  const team = useTeam();
  const save = useSavePractice();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(practice.practiceName);
  const [phone, setPhone] = useState(formatPhone(practice.phoneNumber));
  const [phones, setPhones] = useState<PhoneRow[]>(() => phoneRows(practice));
  const [logo, setLogo] = useState<string | null>(practice.base64Logo ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const owner = (userId: string) => {
    const user = team.data?.find((u) => u.userId === userId);
    return user ? displayUserName(user) : 'Unknown user';
  };
  // Spec shell §3: each additional number has an owner, one of the practice's (non-deleted) users.
  const owners = (team.data ?? []).filter((u) => u.userStatus !== 'deleted').map((u) => ({ id: u.userId, label: displayUserName(u) }));

  const startEditing = () => {
    setName(practice.practiceName);
    setPhone(formatPhone(practice.phoneNumber));
    setPhones(phoneRows(practice));
    setLogo(practice.base64Logo ?? null);
    setErrors({});
    setEditing(true);
  };
  const setRow = (index: number, change: Partial<PhoneRow>) => setPhones((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const pickLogo = (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => setLogo(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
  };

  const submit = async () => {
    try {
      await save.mutateAsync({
        practiceName: name.trim(),
        phoneNumber: phone.trim(),
        additionalPhoneNumbers: phones.map((row) => ({ phoneNumber: row.phoneNumber.trim(), owner: row.owner ?? '' })),
        base64Logo: logo,
      });
      showToast('Practice saved', { tone: 'success' });
      setEditing(false);
    } catch (error) {
      const fieldErrors = isApiError(error) ? error.fieldErrors : {};
      setErrors(fieldErrors);
      // Field errors are said next to their fields; a toast carries anything else.
      if (Object.keys(fieldErrors).length === 0) showToast(error instanceof Error ? error.message : 'The practice could not be saved', { tone: 'error' });
    }
  };

  return (
    <div className="tw-card tw-settings__card">
      <div className="tw-card__header">
        <h2 className="tw-card__title">Practice details</h2>
        {isAdmin && !editing ? (
          <Button size="sm" onPress={startEditing}>
            Edit
          </Button>
        ) : null}
      </div>
      {practice.productDeactivatedAt ? (
        <p className="tw-settings__deactivated" role="status">
          Deactivated on {isoToUsDate(practice.productDeactivatedAt.slice(0, 10))}. Automated messages, appointment reminders and integrations are disabled.
        </p>
      ) : null}
      {editing ? (
        <Form
          validationErrors={errors}
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
          className="tw-settings__form"
        >
          <TextField label="Practice name" name="practiceName" isRequired value={name} onChange={setName} />
          <TextField label="Practice phone number" name="phoneNumber" inputMode="tel" value={phone} onChange={setPhone} />
          <fieldset className="tw-settings__fieldset">
            <legend className="tw-field__label">Additional numbers</legend>
            {phones.map((row, i) => (
              <div key={row.key} className="tw-settings__phone-row">
                <TextField
                  label={`Additional number ${i + 1}`}
                  name={`additionalPhoneNumbers.${i}.phoneNumber`}
                  inputMode="tel"
                  value={row.phoneNumber}
                  onChange={(v) => setRow(i, { phoneNumber: v })}
                />
                <Select
                  label={`Owner of number ${i + 1}`}
                  name={`additionalPhoneNumbers.${i}.owner`}
                  options={owners}
                  value={row.owner}
                  onChange={(v) => setRow(i, { owner: v })}
                />
                <Button size="sm" variant="quiet" aria-label={`Remove number ${i + 1}`} onPress={() => setPhones((rows) => rows.filter((_, j) => j !== i))}>
                  Remove
                </Button>
              </div>
            ))}
            <Button size="sm" onPress={() => setPhones((rows) => [...rows, { key: `new-${Date.now()}-${rows.length}`, phoneNumber: '', owner: null }])}>
              Add number
            </Button>
          </fieldset>
          <fieldset className="tw-settings__fieldset">
            <legend className="tw-field__label">Logo</legend>
            <div className="tw-settings__logo-row">
              {logo ? (
                <img className="tw-settings__logo" src={logoSrc(logo)} alt="Logo preview" />
              ) : (
                <span className="tw-settings__muted">No logo uploaded</span>
              )}
              <FileTrigger acceptedFileTypes={LOGO_TYPES} onSelect={pickLogo}>
                <Button size="sm">{logo ? 'Replace logo' : 'Upload logo'}</Button>
              </FileTrigger>
              {logo ? (
                <Button size="sm" variant="quiet" onPress={() => setLogo(null)}>
                  Remove logo
                </Button>
              ) : null}
            </div>
            {errors.base64Logo ? (
              <p className="tw-field__error" role="alert">
                {errors.base64Logo}
              </p>
            ) : null}
          </fieldset>
          <div className="tw-settings__actions">
            <Button variant="primary" type="submit" isPending={save.isPending}>
              Save
            </Button>
            <Button variant="quiet" onPress={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </Form>
      ) : (
        <dl className="tw-settings__facts">
          <dt>Practice name</dt>
          <dd>{practice.practiceName}</dd>
          <dt>Phone number</dt>
          <dd>{practice.phoneNumber ? formatPhone(practice.phoneNumber) : '—'}</dd>
          <dt>Additional numbers</dt>
          <dd>
            {practice.additionalPhoneNumbers?.length ? (
              <ul className="tw-settings__phones">
                {practice.additionalPhoneNumbers.map((p) => (
                  <li key={p.phoneNumber}>
                    <span className="tw-settings__mono">{formatPhone(p.phoneNumber)}</span> <span className="tw-settings__muted">— {owner(p.owner)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              '—'
            )}
          </dd>
          <dt>Logo</dt>
          <dd>
            {practice.base64Logo ? (
              <img className="tw-settings__logo" src={logoSrc(practice.base64Logo)} alt={`${practice.practiceName} logo`} />
            ) : (
              <span className="tw-settings__muted">No logo uploaded</span>
            )}
          </dd>
          <dt>Status</dt>
          <dd>{practice.productDeactivatedAt ? <Badge tone="danger">Deactivated</Badge> : <Badge tone="info">Active</Badge>}</dd>
        </dl>
      )}
    </div>
  );
}

interface PhoneRow {
  key: string;
  phoneNumber: string;
  owner: string | null;
}

function phoneRows(practice: PracticeDetails): PhoneRow[] {
  return (practice.additionalPhoneNumbers ?? []).map((p, i) => ({ key: `saved-${i}`, phoneNumber: formatPhone(p.phoneNumber), owner: p.owner }));
}

/** The image types the API accepts as a logo (shared settings schema). */
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml', 'image/webp'];

function logoSrc(base64: string): string {
  return base64.startsWith('data:') ? base64 : `data:image/png;base64,${base64}`;
}

/**
 * Automatic logoff: after this many idle minutes every signed-in screen of the practice locks
 * until its user signs in again. Admins change it; the API checks the bounds.
 */
function ScreenLockCard({ minutes, isAdmin }: { minutes: number; isAdmin: boolean }) {
  const save = useSavePractice();
  const [value, setValue] = useState(String(minutes));
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setError(null);
    const typed = value.trim();
    try {
      // A whole number goes as a number; anything else is sent as typed, so the API's words say what is wrong.
      await save.mutateAsync({ idleLockMinutes: (/^\d+$/.test(typed) ? Number(typed) : typed) as number });
      showToast('Screen lock saved', { tone: 'success' });
    } catch (failure) {
      const fieldError = isApiError(failure) ? failure.fieldErrors.idleLockMinutes : undefined;
      setError(fieldError ?? (failure instanceof Error ? failure.message : 'The screen lock could not be saved'));
    }
  };
  return (
    <div className="tw-card tw-settings__card">
      <div className="tw-card__header">
        <h2 className="tw-card__title">Screen lock</h2>
      </div>
      <p className="tw-settings__muted">
        After this many minutes without use, the screen locks and hides patient data until the same person enters their password. Open notes, typed text and
        recordings are kept.
      </p>
      {isAdmin ? (
        <Form
          validationErrors={error ? { idleLockMinutes: error } : {}}
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
          className="tw-settings__form"
        >
          <TextField
            label="Lock the screen after (minutes)"
            name="idleLockMinutes"
            inputMode="numeric"
            description={`From ${IDLE_LOCK_MINUTES_MIN} to ${IDLE_LOCK_MINUTES_MAX} minutes; ${IDLE_LOCK_MINUTES_DEFAULT} unless changed.`}
            value={value}
            onChange={(next) => {
              setValue(next);
              // The refusal goes as soon as the value is changed. Left to react-aria it would go when the
              // field loses focus, i.e. on pressing "Set screen lock" just below it: the button would move
              // up between the press and the release, and the second try would never be sent.
              setError(null);
            }}
            isRequired
          />
          <div className="tw-settings__actions">
            <Button variant="primary" type="submit" isPending={save.isPending}>
              Set screen lock
            </Button>
          </div>
        </Form>
      ) : (
        <dl className="tw-settings__facts">
          <dt>Lock the screen after</dt>
          <dd>{minutes === 1 ? '1 minute' : `${minutes} minutes`}</dd>
        </dl>
      )}
    </div>
  );
}

function FeatureFlagsCard({ isAdmin }: { isAdmin: boolean }) {
  const gates = useFeatureGates();
  const save = useSaveFeatureGates();
  const flags = gates.data ?? {};
  const names = [...new Set([...FEATURE_FLAGS, ...Object.keys(flags)])];
  return (
    <div className="tw-card tw-settings__card">
      <div className="tw-card__header">
        <h2 className="tw-card__title">Feature flags</h2>
        {!isAdmin ? <span className="tw-settings__muted">Only admins can change feature flags.</span> : null}
      </div>
      {gates.isPending ? (
        <Spinner />
      ) : (
        <ul className="tw-settings__flags">
          {names.map((flag) => (
            <li key={flag}>
              <Switch
                label={flag}
                isSelected={Boolean(flags[flag])}
                isDisabled={!isAdmin || save.isPending}
                onChange={(on) =>
                  save.mutate(
                    { ...flags, [flag]: on },
                    { onError: (error) => showToast(error instanceof Error ? error.message : 'The flag could not be saved', { tone: 'error' }) },
                  )
                }
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
