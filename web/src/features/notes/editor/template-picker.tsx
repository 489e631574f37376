import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { showToast } from '../../../lib/toasts.js';
import { TEMPLATE_MESSAGES, type Template } from '../../../../../shared/templates/template-schema.js';
import { expandTemplate, linkTemplate, useActiveTemplates } from '../api/templates-api.js';

export interface TemplatePickerProps {
  at: { left: number; top: number; bottom: number };
  context: { patientId: string; noteId?: string };
  /** The expanded HTML, or null when the user backed out. */
  onDone: (html: string | null) => void;
}

const matches = (template: Template, query: string) => {
  const q = query.trim().toLowerCase();
  return !q || template.templateName.toLowerCase().includes(q) || template.shortcut.toLowerCase().includes(q);
};

/** The '/' menu: filter the practice's active templates, Enter inserts the chosen one expanded for the patient. */
export function TemplatePicker({ at, context, onDone }: TemplatePickerProps) {
  const templates = useActiveTemplates(true);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [applying, setApplying] = useState(false);
  // A fast typist's Enter can come before the list does; it is kept and carried out when the list arrives.
  const [enterWaiting, setEnterWaiting] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const shown = useMemo(() => (templates.data ?? []).filter((t) => matches(t, query)), [templates.data, query]);

  useEffect(() => inputRef.current?.focus(), []);

  const waitingForList = templates.isPending || (templates.isFetching && shown.length === 0);

  const apply = async (template: Template | undefined) => {
    if (!template || applying) return;
    setApplying(true);
    try {
      const expansion = await expandTemplate(template.templateId, context);
      onDone(expansion.formattedText);
      // The link only records which template the note used; the text is in the note either way.
      if (context.noteId) void linkTemplate(template.templateId, context.noteId).catch(() => undefined);
    } catch {
      showToast(TEMPLATE_MESSAGES.applyFailed, { tone: 'error' });
      onDone(null);
    }
  };

  useEffect(() => {
    if (!enterWaiting || waitingForList) return;
    setEnterWaiting(false);
    void apply(shown[active]);
    // apply is recreated each render; the waiting flag alone decides when this runs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enterWaiting, waitingForList]);

  const top = Math.min(at.bottom + 4, window.innerHeight - 260);
  const left = Math.min(at.left, window.innerWidth - 300);

  return (
    <div className="tw-template-picker" style={{ top, left }} role="dialog" aria-label="Insert template">
      <input
        ref={inputRef}
        className="tw-field__input tw-template-picker__search"
        placeholder="Search templates"
        aria-label="Search templates"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={shown[active] ? `${listId}-${shown[active].templateId}` : undefined}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onBlur={() => {
          if (!applying) onDone(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive((i) => Math.min(i + 1, shown.length - 1));
          else if (e.key === 'ArrowUp') setActive((i) => Math.max(i - 1, 0));
          else if (e.key === 'Enter') {
            if (waitingForList) setEnterWaiting(true);
            else void apply(shown[active]);
          } else if (e.key === 'Escape') onDone(null);
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
      />
      <ul id={listId} role="listbox" className="tw-template-picker__list" aria-label="Templates">
        {templates.isPending ? <li className="tw-template-picker__empty">Loading templates…</li> : null}
        {templates.isError ? <li className="tw-template-picker__empty">Templates could not be loaded.</li> : null}
        {templates.isSuccess && shown.length === 0 ? (
          <li className="tw-template-picker__empty" role="alert">
            {query.trim() ? TEMPLATE_MESSAGES.shortcodeNotFound(query.trim()) : 'No templates'}
          </li>
        ) : null}
        {shown.map((template, index) => (
          <li
            key={template.templateId}
            id={`${listId}-${template.templateId}`}
            role="option"
            aria-selected={index === active}
            className="tw-template-picker__item"
            onMouseDown={(e) => {
              e.preventDefault();
              void apply(template);
            }}
            onMouseEnter={() => setActive(index)}
          >
            <span>{template.templateName}</span>
            {template.shortcut ? <span className="tw-template-picker__shortcut">{template.shortcut}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
