import { useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.js';
import { useFeatureFlag } from '../../../lib/feature-flags.js';
import { useCopilotTemplates } from '../api/scribe-api.js';
import { useKeepFocus } from '../use-keep-focus.js';

export interface TemplateChoice {
  /** A custom template's id instead of the SOAP layout. */
  templateIdent: string | null;
  afterVisitSummary: boolean;
}

const SOAP = 'SOAP_NOTE';

/** Spec notes §9: SOAP_NOTE by default, then none or VISIT_SUMMARY (After Visit Summary); custom templates with copilot_custom_templates. */
export function TemplateStep({
  onGenerate,
  onDiscard,
  generating,
  error,
}: {
  onGenerate(choice: TemplateChoice): void;
  onDiscard(): void;
  generating: boolean;
  error: string | null;
}) {
  const custom = useFeatureFlag('copilot_custom_templates');
  const templates = useCopilotTemplates(custom);
  const [note, setNote] = useState(SOAP);
  const [extra, setExtra] = useState<'none' | 'VISIT_SUMMARY'>('none');
  const name = useId();
  const ref = useRef<HTMLElement>(null);
  useKeepFocus(ref, null);

  return (
    <section ref={ref} className="tw-scribe-panel" aria-label="Choose templates">
      <fieldset className="tw-scribe-fieldset">
        <legend>Note template</legend>
        <label className="tw-scribe-radio">
          <input type="radio" name={`${name}-note`} value={SOAP} checked={note === SOAP} onChange={() => setNote(SOAP)} />
          SOAP Note
        </label>
        {custom
          ? (templates.data ?? []).map((t) => (
              <label key={t.templateId} className="tw-scribe-radio">
                <input type="radio" name={`${name}-note`} value={t.templateId} checked={note === t.templateId} onChange={() => setNote(t.templateId)} />
                {t.templateName}
              </label>
            ))
          : null}
      </fieldset>
      <fieldset className="tw-scribe-fieldset">
        <legend>Also create</legend>
        <label className="tw-scribe-radio">
          <input type="radio" name={`${name}-extra`} value="none" checked={extra === 'none'} onChange={() => setExtra('none')} />
          None
        </label>
        <label className="tw-scribe-radio">
          <input type="radio" name={`${name}-extra`} value="VISIT_SUMMARY" checked={extra === 'VISIT_SUMMARY'} onChange={() => setExtra('VISIT_SUMMARY')} />
          After Visit Summary
        </label>
      </fieldset>
      {error ? (
        <p className="tw-field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="tw-scribe-panel__actions">
        <Button
          size="sm"
          variant="primary"
          isPending={generating}
          onPress={() => onGenerate({ templateIdent: note === SOAP ? null : note, afterVisitSummary: extra === 'VISIT_SUMMARY' })}
        >
          {generating ? 'Generating…' : 'Generate'}
        </Button>
        <Button size="sm" variant="quiet" isDisabled={generating} onPress={onDiscard}>
          Discard
        </Button>
      </div>
    </section>
  );
}
