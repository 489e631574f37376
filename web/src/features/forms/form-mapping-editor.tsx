import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import {
  FORM_MESSAGES,
  MAPPING_SECTION_LABELS,
  MAPPING_SECTIONS,
  mappingErrors,
  titleOverrideEditable,
  type FormMappingQuestion,
  type FormSummary,
  type MappingSection,
  type SavedFormMapping,
} from '../../../../shared/forms/forms.js';
import { Button } from '../../components/ui/button.js';
import { Checkbox } from '../../components/ui/checkbox.js';
import { MODAL_WIDTH } from '../../components/ui/dialog.js';
import { Select } from '../../components/ui/select.js';
import { Spinner } from '../../components/ui/spinner.js';
import { TextField } from '../../components/ui/text-field.js';
import { apiRequest } from '../../lib/api-client.js';
import { showToast, withServerText } from '../../lib/toasts.js';

const mappingKey = (formId: string) => ['forms', 'mapping', formId] as const;

type Row = FormMappingQuestion;

const rowsOf = (saved: SavedFormMapping): Row[] =>
  saved.questions.map((q) => ({ id: q.id, title: q.title, type: q.type, subType: q.subType, enabled: q.enabled, section: q.section, titleOverride: q.titleOverride }));

/**
 * The Forms screen's mapping editor (spec chart-data §2, §4, §5): for each question the form's
 * submissions asked, whether it is added to the health summary, its target section and, for General
 * and Social only, its title. Save follows Confirm's rules: disabled with errors, with no questions,
 * or when nothing changed.
 */
export function FormMappingEditor({ form, onClose }: { form: FormSummary; onClose: () => void }) {
  const queryClient = useQueryClient();
  const saved = useQuery({ queryKey: mappingKey(form.id), queryFn: ({ signal }) => apiRequest<SavedFormMapping>({ path: `/v1/practices/form-mappings/${encodeURIComponent(form.id)}`, signal }) });
  const [edited, setEdited] = useState<Row[] | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const initial = useMemo(() => (saved.data ? rowsOf(saved.data) : null), [saved.data]);
  const rows = edited ?? initial;
  const errors = useMemo(() => mappingErrors(rows ?? []), [rows]);
  const changed = !!rows && JSON.stringify(rows) !== JSON.stringify(initial);
  const saveDisabled = !rows || rows.length === 0 || Object.keys(errors).length > 0 || !changed || pending;
  const update = (id: string, change: Partial<Row>) => {
    setError(null);
    setEdited((rows ?? []).map((r) => (r.id === id ? { ...r, ...change } : r)));
  };
  const save = async () => {
    if (!rows) return;
    setPending(true);
    setError(null);
    try {
      const next = await apiRequest<SavedFormMapping>({ method: 'POST', path: '/v1/practices/form-mappings', body: { formId: form.id, questions: rows } });
      queryClient.setQueryData(mappingKey(form.id), { ...next, questions: [...next.questions, ...(saved.data?.questions ?? []).filter((q) => !next.questions.some((n) => n.id === q.id))] });
      showToast('Form mapping saved', { tone: 'success' });
      onClose();
    } catch (e) {
      // The edits stay in the table to try again.
      setError(withServerText(FORM_MESSAGES.mappingsFailed, e));
    } finally {
      setPending(false);
    }
  };
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => (open ? undefined : onClose())} className="tw-modal-overlay">
      <Modal className="tw-modal" style={{ width: `min(${MODAL_WIDTH.xl}px, 96vw)` }}>
        <AriaDialog className="tw-dialog">
          <Heading slot="title" className="tw-dialog__title">
            Form mapping: {form.name}
          </Heading>
          {!rows ? (
            saved.isError ? <p role="alert">{withServerText('There was an error loading the form mapping.', saved.error)}</p> : <Spinner label="Loading mapping" />
          ) : rows.length === 0 ? (
            <p>No questions yet: a form&apos;s questions appear here once a patient has submitted it.</p>
          ) : (
            <div className="tw-forms-map__scroll">
              <table className="tw-forms-map" aria-label={`Mapping of ${form.name}`}>
                <thead>
                  <tr>
                    <th scope="col">Question (check to add it to the health summary)</th>
                    <th scope="col">Section</th>
                    <th scope="col">Title</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.id}>
                      <td>
                        <Checkbox label={`Add ${r.title || r.id}`} isSelected={r.enabled} onChange={(enabled) => update(r.id, { enabled })} />
                      </td>
                      <td>
                        <Select
                          label={`Section for ${r.title || r.id}`}
                          options={MAPPING_SECTIONS.map((s) => ({ id: s, label: MAPPING_SECTION_LABELS[s] }))}
                          value={r.section}
                          onChange={(s) => update(r.id, { section: (s as MappingSection) ?? null, ...(titleOverrideEditable(s as MappingSection) ? {} : { titleOverride: '' }) })}
                        />
                      </td>
                      <td>
                        <TextField
                          label={`Title for ${r.title || r.id}`}
                          isDisabled={!titleOverrideEditable(r.section)}
                          value={r.titleOverride}
                          onChange={(titleOverride) => update(r.id, { titleOverride })}
                          isInvalid={Boolean(errors[r.id])}
                          description={errors[r.id] && r.enabled ? errors[r.id] : undefined}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {error ? (
            <p className="tw-forms-map__error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="tw-dialog__actions">
            <Button onPress={onClose}>Cancel</Button>
            {/* Not isPending: react-aria announces a pending button by its id, and this one leaves with the dialog. */}
            <Button variant="primary" isDisabled={saveDisabled} onPress={() => void save()}>
              {pending ? 'Saving…' : 'Save mapping'}
            </Button>
          </div>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
