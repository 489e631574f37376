import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { z } from '../../../../../shared/zod.js';
import { Button } from '../../../components/ui/button.js';
import { Form } from '../../../components/ui/form.js';
import { isApiError } from '../../../lib/api-error.js';
import { clearFormDraft, readFormDraft, saveFormDraft } from '../../../lib/form-drafts.js';
import { showToast } from '../../../lib/toasts.js';
import { useUnsavedChangesGuard } from '../../../lib/unsaved-changes.js';
import { zodFieldErrors } from '../../../lib/zod-field-errors.js';
import { SideModal } from './side-modal.js';
import { StaleEditNotice } from './stale-edit-notice.js';

export type SetField<V> = <K extends keyof V>(field: K, value: V[K]) => void;

export interface ItemFormProps<V> {
  title: string;
  /** Key under which the dirty state is reported to the unsaved-changes guard. */
  guardKey: string;
  /**
   * Where typed values are kept while unsaved (see lib/form-drafts): a navigation the router could
   * not hold back unmounts the form, and it opens again from them. Saving or Cancel drops them.
   */
  draftKey?: string;
  initial: V;
  /** The request body the values make; the shared schema validates it before anything is sent. */
  toBody: (values: V) => Record<string, unknown>;
  schema: z.ZodMiniType;
  /** Resolves when saved; rejects with the API error otherwise. `version` is the one the form last read. */
  save: (body: Record<string, unknown>, values: V, version?: number) => Promise<unknown>;
  /** The edited item's version: sent with the save, so a save over someone else's change gets 409. */
  version?: number;
  /** After a 409: the item as saved now (values and version), for Reload / Keep mine. */
  loadLatest?: () => Promise<{ values: V; version: number } | undefined>;
  onClose: () => void;
  /**
   * Allergy rule (spec §2): closing the panel validates the form and saves it only if it is
   * valid. Other forms discard on close.
   */
  saveOnDismiss?: boolean;
  /**
   * Allergy rule (spec §5): validation runs on touch. A field's message shows once the user has
   * left it, and follows its value from then on; other forms check on Save.
   */
  validateOnTouch?: boolean;
  /**
   * What a failure other than field errors does (spec §8): allergies and diagnoses log it and
   * close (the list is refetched), medications toast "Error: …"; otherwise it shows in the form.
   */
  failure?: 'log' | 'toast' | 'inline';
  /** The field to focus on open (the one double-clicked on the card). */
  focusField?: string;
  /** Shown (and the form closed) when saving answers 404: the item was deleted meanwhile. */
  goneMessage?: string;
  /** A standing notice above the fields (the opened item is no longer in the list). */
  notice?: string;
  children: (values: V, set: SetField<V>) => ReactNode;
}

/**
 * A chart item form in the side panel. Saving with no changes only closes (spec §4); the
 * shared schema's messages, then the server's 400 field errors, show under the fields; typed
 * values stay when saving fails.
 */
export function ItemForm<V>({
  title,
  guardKey,
  draftKey,
  initial,
  toBody,
  schema,
  save,
  version: openedVersion,
  loadLatest,
  onClose: close,
  saveOnDismiss,
  validateOnTouch = false,
  failure = 'inline',
  focusField,
  goneMessage,
  notice,
  children,
}: ItemFormProps<V>) {
  const [values, setValues] = useState<V>(() => (draftKey ? { ...initial, ...readFormDraft<Partial<V>>(draftKey) } : initial));
  const [version, setVersion] = useState<number | undefined>(openedVersion);
  /** Set after a 409: the saved version the user chooses against; their input stays in `values`. */
  const [stale, setStale] = useState<{ values: V; version: number } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const initialJson = useMemo(() => JSON.stringify(initial), [initial]);
  const dirty = JSON.stringify(values) !== initialJson;
  useUnsavedChangesGuard(guardKey, dirty);
  // Only while dirty: a form opened and left untouched leaves nothing behind.
  useEffect(() => {
    if (!draftKey) return;
    if (dirty) saveFormDraft(draftKey, values);
    else clearFormDraft(draftKey);
  }, [draftKey, dirty, values]);
  const onClose = () => {
    if (draftKey) clearFormDraft(draftKey);
    close();
  };

  useEffect(() => {
    if (!focusField) return undefined;
    // After the panel's own autofocus, which would otherwise win.
    const timer = setTimeout(() => document.querySelector<HTMLElement>(`#tw-chart-item-form [name="${CSS.escape(focusField)}"]`)?.focus(), 50);
    return () => clearTimeout(timer);
  }, [focusField]);

  useEffect(() => {
    if (!validateOnTouch || touched.size === 0) return;
    setErrors(touchedErrors(schema, toBody(values), touched));
    // toBody and schema are fixed for the form's life; the check follows the values and the touches.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [validateOnTouch, values, touched]);

  const touch = (field: string | null) => {
    if (!validateOnTouch || !field || touched.has(field)) return;
    setTouched(new Set([...touched, field]));
  };

  const set: SetField<V> = (field, value) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      const key = String(field);
      if (!(key in current)) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });
  };

  const validate = (): Record<string, unknown> | null => {
    const parsed = schema.safeParse(toBody(values));
    if (parsed.success) return toBody(values);
    const found = zodFieldErrors(parsed.error);
    setErrors(found);
    // A field the save found wrong counts as touched: its message then follows its value.
    if (validateOnTouch) setTouched(new Set([...touched, ...Object.keys(found)]));
    return null;
  };

  const submit = async (asVersion = version) => {
    if (!dirty) {
      onClose();
      return;
    }
    const body = validate();
    if (!body) return;
    setSaving(true);
    setFormError(null);
    try {
      await save(body, values, asVersion);
      onClose();
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The item could not be saved.';
      const latest = isApiError(error, 409) && loadLatest ? await loadLatest().catch(() => undefined) : undefined;
      if (latest) setStale(latest);
      else if (goneMessage && isApiError(error, 404)) {
        showToast(goneMessage);
        onClose();
      } else if (isApiError(error) && Object.keys(error.fieldErrors).length) setErrors(error.fieldErrors);
      else if (failure === 'log') {
        console.error(`Saving failed: ${title}`, error);
        onClose();
      } else if (failure === 'toast') showToast(`Error: ${message}`, { tone: 'error' });
      else setFormError(message);
    } finally {
      setSaving(false);
    }
  };

  const reload = () => {
    if (!stale) return;
    setValues(stale.values);
    setVersion(stale.version);
    setErrors({});
    setStale(null);
  };

  const keepMine = () => {
    if (!stale) return;
    setVersion(stale.version);
    setStale(null);
    void submit(stale.version);
  };

  const dismiss = () => {
    // A pending stale-edit choice is the user's to make; closing does not save over it.
    if (saveOnDismiss && !stale) void submit();
    else onClose();
  };

  return (
    <SideModal
      title={title}
      isOpen
      onDismiss={dismiss}
      footer={
        <>
          <Button variant="secondary" onPress={onClose}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="tw-chart-item-form" isPending={saving}>
            Save
          </Button>
        </>
      }
    >
      <Form
        id="tw-chart-item-form"
        data-dirty={dirty ? 'true' : 'false'}
        validationErrors={errors}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        className="tw-chart-form"
      >
        {stale ? <StaleEditNotice onReload={reload} onKeepMine={keepMine} busy={saving} /> : null}
        {formError || notice ? (
          <p className="tw-chart-form__error" role="alert">
            {formError ?? notice}
          </p>
        ) : null}
        {/* Leaving a field marks it touched (React's blur bubbles); the wrapper adds no box of its own. */}
        <div className="tw-chart-form__fields" style={{ display: 'contents' }} onBlur={(event) => touch(event.target.getAttribute('name'))}>
          {children(values, set)}
        </div>
      </Form>
    </SideModal>
  );
}

/** The shared schema's messages for the fields the user has touched; the others stay quiet. */
export function touchedErrors(schema: z.ZodMiniType, body: Record<string, unknown>, touched: ReadonlySet<string>): Record<string, string> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return {};
  return Object.fromEntries(Object.entries(zodFieldErrors(parsed.error)).filter(([field]) => touched.has(field)));
}
