import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { FORM_MESSAGES, mappingErrors, type FormMappingQuestion, type FormSummary, type SavedFormMapping } from '../../../../shared/forms/forms.js';
import { MappingDialog } from '../../components/form-mapping/mapping-dialog.js';
import { MappingTable } from '../../components/form-mapping/mapping-table.js';
import { fetchFormMapping, saveFormMapping } from './api/forms-api.js';
import { showToast, withServerText } from '../../lib/toasts.js';

const mappingKey = (formId: string) => ['forms', 'mapping', formId] as const;

type Row = FormMappingQuestion;

const rowsOf = (saved: SavedFormMapping): Row[] =>
  saved.questions.map((q) => ({
    id: q.id,
    title: q.title,
    type: q.type,
    subType: q.subType,
    enabled: q.enabled,
    section: q.section,
    titleOverride: q.titleOverride,
  }));

/**
 * The Forms screen's mapping editor (spec chart-data §2, §4, §5): for each question the form's
 * submissions asked, whether it is added to the health summary, its target section and, for General
 * and Social only, its title. Save follows Confirm's rules: disabled with errors, with no questions,
 * or when nothing changed.
 */
export function FormMappingEditor({ form, onClose }: { form: FormSummary; onClose: () => void }) {
  const queryClient = useQueryClient();
  const saved = useQuery({ queryKey: mappingKey(form.id), queryFn: ({ signal }) => fetchFormMapping(form.id, signal) });
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
      const next = await saveFormMapping(form.id, rows);
      queryClient.setQueryData(mappingKey(form.id), {
        ...next,
        questions: [...next.questions, ...(saved.data?.questions ?? []).filter((q) => !next.questions.some((n) => n.id === q.id))],
      });
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
    <MappingDialog
      title={`Form mapping: ${form.name}`}
      onClose={onClose}
      isLoaded={!!rows}
      loadError={saved.isError ? withServerText('There was an error loading the form mapping.', saved.error) : null}
      error={error}
      confirmLabel="Save mapping"
      confirmDisabled={saveDisabled}
      pending={pending}
      onConfirm={() => void save()}
    >
      {rows?.length === 0 ? (
        <p>No questions yet: a form&apos;s questions appear here once a patient has submitted it.</p>
      ) : (
        <MappingTable
          rows={rows ?? []}
          errors={errors}
          onChange={update}
          aria-label={`Mapping of ${form.name}`}
          addHeading="Question (check to add it to the health summary)"
          nameOf={(r) => r.title || r.id}
        />
      )}
    </MappingDialog>
  );
}
