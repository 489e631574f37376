import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PARTNER_APP_ID, PARTNER_ICONS, type PartnerApp } from '../../../../../shared/partners/partner-schema.js';
import { can } from '../../../../../shared/permissions/permissions.js';
import { ActiveBadge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { DraftForm } from '../../../components/ui/draft-form.js';
import { Page } from '../../../components/ui/page.js';
import { EditRemoveCell, RemoveDialog } from '../../../components/ui/row-actions.js';
import { Select } from '../../../components/ui/select.js';
import { SettingsCard } from '../../../components/ui/settings-card.js';
import { SettingsList } from '../../../components/ui/settings-list.js';
import { Switch } from '../../../components/ui/switch.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError } from '../../../lib/api-error.js';
import { partnerAppKeys, partnerAppLabel, usePartnerApps } from '../../../lib/partner-apps.js';
import { actorOf } from '../../../lib/permissions.js';
import { useCurrentUser } from '../../../lib/practice.js';
import { showToast } from '../../../lib/toasts.js';
import { savePartnerApps } from '../api/settings-api.js';
import { SettingsNav } from './settings-nav.js';
import '../settings.css';

interface Draft {
  partnerAppId: string;
  name: string;
  icon: string;
  origin: string;
  path: string;
  active: boolean;
  isNew: boolean;
}

const ICON_OPTIONS = PARTNER_ICONS.map((i) => ({ id: i, label: i.charAt(0).toUpperCase() + i.slice(1) }));
const toDraft = (app: PartnerApp): Draft => ({
  partnerAppId: app.partnerAppId,
  name: app.name,
  icon: app.icon,
  origin: app.origin,
  path: app.path,
  active: app.active,
  isNew: false,
});

/** /new-settings/partner-apps: the practice's partner apps; admins add, change and remove them. */
export function PartnerAppsPage() {
  const apps = usePartnerApps();
  const me = useCurrentUser().data;
  const isAdmin = can(actorOf(me), 'practice.settings.change');
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [removing, setRemoving] = useState<PartnerApp | null>(null);
  const allowed = apps.data?.allowedOrigins ?? [];

  const toInput = (a: Pick<PartnerApp, 'partnerAppId' | 'name' | 'icon' | 'origin' | 'path' | 'noteType' | 'active'>) => ({
    partnerAppId: a.partnerAppId,
    name: a.name,
    icon: a.icon,
    origin: a.origin,
    path: a.path,
    noteType: a.noteType,
    active: a.active,
  });
  // One call for the whole list: adding, changing and removing an app each send the list as it should be.
  const replace = useMutation({
    mutationFn: (partnerApps: ReturnType<typeof toInput>[]) => savePartnerApps(partnerApps),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: partnerAppKeys.list }),
  });
  const saved = apps.data?.partnerApps ?? [];
  const withDraft = (d: Draft) => {
    const edited = toInput({
      partnerAppId: d.partnerAppId,
      name: d.name.trim(),
      icon: d.icon as PartnerApp['icon'],
      origin: d.origin,
      path: d.path.trim() || '/',
      noteType: 'PARTNER',
      active: d.active,
    });
    return d.isNew ? [...saved.map(toInput), edited] : saved.map((a) => (a.partnerAppId === d.partnerAppId ? edited : toInput(a)));
  };

  const submit = async () => {
    if (!draft) return;
    if (draft.isNew && (!PARTNER_APP_ID.test(draft.partnerAppId) || saved.some((a) => a.partnerAppId === draft.partnerAppId))) {
      setErrors({ partnerAppId: 'Use 2-63 lowercase letters, digits or dashes, not taken by another app' });
      return;
    }
    try {
      await replace.mutateAsync(withDraft(draft));
      showToast('Partner app saved', { tone: 'success' });
      setDraft(null);
      setErrors({});
    } catch (error) {
      // The list's field errors name the app's position; the form shows them on its own fields.
      const fieldErrors = Object.fromEntries(
        Object.entries(isApiError(error) ? error.fieldErrors : {}).map(([k, v]) => [k.replace(/^partnerApps\.\d+\./, ''), v]),
      );
      setErrors(fieldErrors);
      if (Object.keys(fieldErrors).length === 0) showToast(error instanceof Error ? error.message : 'The partner app could not be saved', { tone: 'error' });
    }
  };

  return (
    <Page title="Settings" nav={<SettingsNav />}>
      <SettingsCard
        title="Partner apps"
        action={
          isAdmin && !draft ? (
            <Button
              size="sm"
              onPress={() => (
                setErrors({}),
                setDraft({ partnerAppId: '', name: '', icon: 'app', origin: allowed[0] ?? '', path: '/', active: true, isNew: true })
              )}
            >
              Add partner app
            </Button>
          ) : null
        }
      >
        <p className="tw-settings__muted tw-settings__hint">
          Each active app is offered under New Interaction and opens in a note window from its own origin. Apps can use the origins this deployment allows:{' '}
          {allowed.length ? allowed.join(', ') : 'none'}.
        </p>
        {draft ? (
          <DraftForm errors={errors} isPending={replace.isPending} onSave={() => void submit()} onCancel={() => setDraft(null)}>
            {draft.isNew ? (
              <TextField label="App id" name="partnerAppId" isRequired value={draft.partnerAppId} onChange={(v) => setDraft({ ...draft, partnerAppId: v })} />
            ) : null}
            <TextField label="Name" name="name" isRequired value={draft.name} onChange={(v) => setDraft({ ...draft, name: v })} />
            <Select label="Icon" name="icon" options={ICON_OPTIONS} value={draft.icon} onChange={(v) => setDraft({ ...draft, icon: v ?? 'app' })} />
            <Select
              label="Origin"
              name="origin"
              isRequired
              options={allowed.map((o) => ({ id: o, label: o }))}
              value={draft.origin || null}
              onChange={(v) => setDraft({ ...draft, origin: v ?? '' })}
            />
            <TextField label="Page" name="path" value={draft.path} onChange={(v) => setDraft({ ...draft, path: v })} />
            <Switch label="Active" isSelected={draft.active} onChange={(active) => setDraft({ ...draft, active })} />
            {errors.origin ? (
              <p className="tw-field__error" role="alert">
                {errors.origin}
              </p>
            ) : null}
          </DraftForm>
        ) : null}
        <SettingsList
          query={apps}
          items={apps.data?.partnerApps}
          emptyText="No partner apps yet."
          label="Partner apps"
          columns={['Name', 'Origin', 'Page', 'Status']}
          hasActions={isAdmin}
          renderRow={(app) => (
            <tr key={app.partnerAppId}>
              <td>{partnerAppLabel(app)}</td>
              <td className="tw-settings__mono">{app.origin}</td>
              <td className="tw-settings__mono">{app.path}</td>
              <td>
                <ActiveBadge active={app.active} />
              </td>
              {isAdmin ? <EditRemoveCell name={app.name} onEdit={() => (setErrors({}), setDraft(toDraft(app)))} onRemove={() => setRemoving(app)} /> : null}
            </tr>
          )}
        />
      </SettingsCard>
      <RemoveDialog
        item={removing}
        onClose={() => setRemoving(null)}
        title="Remove this partner app?"
        isPending={replace.isPending}
        onConfirm={(item) =>
          replace.mutate(saved.filter((a) => a.partnerAppId !== item.partnerAppId).map(toInput), {
            onSuccess: () => showToast('Partner app removed', { tone: 'success' }),
            onError: (error) => showToast(error.message, { tone: 'error' }),
            onSettled: () => setRemoving(null),
          })
        }
      >
        {removing?.name} will no longer be offered under New Interaction. Notes it wrote stay in the charts.
      </RemoveDialog>
    </Page>
  );
}
