import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { PLACEHOLDER_TOKENS } from '../../../../../shared/templates/placeholders.js';
import { TEMPLATE_LIMITS, TEMPLATE_STATUSES, TemplateInput, type Template, type TemplateStatus } from '../../../../../shared/templates/template-schema.js';
import { Button } from '../../../components/ui/button.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { Form } from '../../../components/ui/form.js';
import { Link } from '../../../components/ui/link.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { showToast } from '../../../lib/toasts.js';
import { zodFieldErrors } from '../../../lib/zod-field-errors.js';
import { useDeleteTemplate, useSaveTemplate, useTemplate } from '../api/templates-settings-api.js';
import { Page } from '../../../components/ui/page.js';
import '../templates.css';

const STATUS_OPTIONS = TEMPLATE_STATUSES.map((s) => ({ id: s, label: s === 'active' ? 'Active' : 'Inactive' }));
const PLACEHOLDER_GROUPS: [string, readonly string[]][] = [
  ['Context', PLACEHOLDER_TOKENS.context],
  ['Patient', PLACEHOLDER_TOKENS.patient],
  ['Form and vitals', PLACEHOLDER_TOKENS.formAndVitals],
  ['Chart data', PLACEHOLDER_TOKENS.chart],
];

/** /new-settings/templates/new and /new-settings/templates/{templateId}. `nav` is the settings tab bar. */
export function TemplateFormPage({ nav }: { nav?: ReactNode }) {
  const { templateId = null } = useParams();
  const existing = useTemplate(templateId);
  return (
    <Page title="Settings" nav={nav}>
      {templateId && existing.isPending ? (
        <Spinner label="Loading the template" />
      ) : templateId && existing.isError ? (
        <div className="tw-card tw-templates__card">
          <p role="alert">{isApiError(existing.error, 404) ? 'Template not found' : existing.error.message}</p>
          <Link href={paths.templates()}>Back to templates</Link>
        </div>
      ) : (
        <TemplateCard key={templateId ?? 'new'} template={existing.data ?? null} />
      )}
    </Page>
  );
}

function TemplateCard({ template }: { template: Template | null }) {
  const navigate = useNavigate();
  const save = useSaveTemplate(template?.templateId ?? null);
  const remove = useDeleteTemplate(template?.templateId ?? '');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [values, setValues] = useState({
    templateName: template?.templateName ?? '',
    shortcut: template?.shortcut ?? '',
    body: template?.body ?? '',
    status: (template?.status ?? 'active') as TemplateStatus,
    private: template?.private ?? false,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof typeof values>(field: K, value: (typeof values)[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };

  const submit = async () => {
    const parsed = TemplateInput.safeParse(values);
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    try {
      const saved = await save.mutateAsync(parsed.data);
      setErrors({});
      showToast('Template saved', { tone: 'success' });
      if (!template) void navigate(paths.template(saved.templateId), { replace: true });
    } catch (error) {
      if (isApiError(error)) setErrors(error.fieldErrors);
      showToast(error instanceof Error ? error.message : 'The template could not be saved', { tone: 'error' });
    }
  };

  const onDelete = async () => {
    try {
      await remove.mutateAsync();
      showToast('Template deleted', { tone: 'success' });
      void navigate(paths.templates());
    } catch (error) {
      showToast(error instanceof Error ? error.message : 'The template could not be deleted', { tone: 'error' });
    } finally {
      setConfirmDelete(false);
    }
  };

  return (
    <div className="tw-card tw-templates__card">
      <div className="tw-card__header">
        <h2 className="tw-card__title">{template ? template.templateName : 'New template'}</h2>
        <Link href={paths.templates()}>All templates</Link>
      </div>
      <Form
        validationErrors={Object.fromEntries(Object.entries(errors).filter(([, m]) => m))}
        className="tw-templates__form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <TextField
          label="Name"
          name="templateName"
          isRequired
          maxLength={TEMPLATE_LIMITS.templateName}
          value={values.templateName}
          onChange={(v) => set('templateName', v)}
        />
        <TextField
          label="Shortcut"
          name="shortcut"
          isRequired
          maxLength={TEMPLATE_LIMITS.shortcut}
          description="Typed after '/' in a note to insert this template."
          value={values.shortcut}
          onChange={(v) => set('shortcut', v)}
        />
        <label className="tw-field tw-templates__span">
          <span className="tw-field__label">
            Body
            <span className="tw-field__required" aria-hidden="true">
              {' '}
              *
            </span>
          </span>
          <textarea
            name="body"
            className="tw-field__input tw-templates__body"
            rows={12}
            maxLength={TEMPLATE_LIMITS.body}
            value={values.body}
            aria-invalid={errors.body ? true : undefined}
            aria-describedby="template-body-help"
            onChange={(e) => set('body', e.target.value)}
          />
          {errors.body ? <span className="tw-field__error">{errors.body}</span> : null}
          <span id="template-body-help" className="tw-field__description">
            Placeholders in double braces are filled from the patient's chart, e.g. {'{{first name}}'}; *** marks a wildcard to fill in (F2 jumps to it).
          </span>
        </label>
        <Select
          label="Status"
          name="status"
          options={STATUS_OPTIONS}
          value={values.status}
          onChange={(v) => set('status', (v ?? 'active') as TemplateStatus)}
        />
        <div className="tw-templates__private">
          <Checkbox label="Private (only I can see and use it)" isSelected={values.private} onChange={(v) => set('private', v)} />
        </div>
        <div className="tw-templates__actions tw-templates__span">
          <Button variant="primary" type="submit" isPending={save.isPending}>
            Save
          </Button>
          {template ? (
            <Button variant="danger" onPress={() => setConfirmDelete(true)}>
              Delete
            </Button>
          ) : null}
        </div>
      </Form>
      <details className="tw-templates__placeholders">
        <summary>Placeholders</summary>
        <dl>
          {PLACEHOLDER_GROUPS.map(([group, tokens]) => (
            <div key={group} className="tw-templates__placeholder-group">
              <dt>{group}</dt>
              <dd>{tokens.map((t) => `{{${t}}}`).join('  ')}</dd>
            </div>
          ))}
        </dl>
      </details>
      <ConfirmDialog
        isOpen={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete this template?"
        confirmLabel="Delete"
        tone="danger"
        isPending={remove.isPending}
        onConfirm={() => void onDelete()}
      >
        {values.templateName || 'This template'} will be deleted. Notes that used it keep their text.
      </ConfirmDialog>
    </div>
  );
}
