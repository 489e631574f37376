import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { NOTE_TIMING } from '../../../../../shared/notes/note-constants.js';
import { debounce } from '../lib/debounce.js';
import { NoteShortcuts } from './note-shortcuts.js';
import { TemplatePicker } from './template-picker.js';

export interface EditorValue {
  /** Plain text, one line per block: what search, SMS and the wildcard rule read. */
  text: string;
  /** HTML: what the note shows and prints. */
  formattedText: string;
}

export interface NoteEditorHandle {
  /** Emits a pending change now (so a save or sign right after typing sees the last keystroke) and returns the value. */
  flush(): EditorValue;
  focus(): void;
}

export interface NoteEditorProps {
  ariaLabel: string;
  initialHtml: string;
  onChange: (value: EditorValue) => void;
  readOnly?: boolean;
  /** Compact editors (addendum, sticky) grow from 48 to 120 px, then scroll (spec shell §9). */
  compact?: boolean;
  /** With a patient, '/' offers the practice's templates expanded for that patient. */
  templateContext?: { patientId: string; noteId?: string } | null;
  /** Shown while the editor is empty and editable (also its aria-placeholder). */
  placeholder?: string;
  ref?: Ref<NoteEditorHandle>;
}

const valueOf = (editor: Editor): EditorValue => ({ text: editor.getText({ blockSeparator: '\n' }), formattedText: editor.getHTML() });

export function NoteEditor({ ariaLabel, initialHtml, onChange, readOnly = false, compact = false, templateContext, placeholder, ref }: NoteEditorProps) {
  const [empty, setEmpty] = useState(true);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const [slashAt, setSlashAt] = useState<{ left: number; top: number; bottom: number } | null>(null);
  const slashEnabled = useRef(Boolean(templateContext));
  slashEnabled.current = Boolean(templateContext);

  const emit = useMemo(
    () => debounce((editor: Editor) => onChangeRef.current(valueOf(editor)), NOTE_TIMING.editorChangeDebounceMs, NOTE_TIMING.editorChangeMaxWaitMs),
    [],
  );

  const editor = useEditor({
    editable: !readOnly,
    content: initialHtml,
    extensions: [
      StarterKit.configure({
        // '*** ' at a line start must stay a wildcard, not become a rule.
        horizontalRule: false,
        link: { openOnClick: false },
      }),
      NoteShortcuts.configure({
        onSlash: (at) => {
          if (slashEnabled.current) setSlashAt(at);
        },
      }),
    ],
    editorProps: {
      attributes: {
        'aria-label': ariaLabel,
        'aria-multiline': 'true',
        ...(placeholder ? { 'aria-placeholder': placeholder } : {}),
        role: 'textbox',
        class: ['tw-note-editor__content', compact ? 'tw-note-editor__content--compact' : ''].filter(Boolean).join(' '),
      },
    },
    // Only a change of the document is an edit: TipTap also emits 'update' when it turns editable or read-only.
    onCreate: ({ editor: current }) => setEmpty(current.isEmpty),
    onUpdate: ({ editor: current, transaction }) => {
      setEmpty(current.isEmpty);
      if (transaction.docChanged) emit(current);
    },
    onBlur: () => emit.flush(),
  });

  useEffect(() => {
    editor.setEditable(!readOnly, false);
  }, [editor, readOnly]);

  useEffect(() => () => emit.flush(), [emit]);

  useImperativeHandle(
    ref,
    () => ({
      flush: () => {
        emit.flush();
        return valueOf(editor);
      },
      focus: () => editor.commands.focus(),
    }),
    [editor, emit],
  );

  const insertTemplate = (html: string | null) => {
    setSlashAt(null);
    if (html === null) {
      // Escape keeps the '/' the user typed.
      editor.chain().focus().insertContent('/').run();
      return;
    }
    editor.chain().focus().insertContent(html).run();
  };

  return (
    <div className={['tw-note-editor', compact ? 'tw-note-editor--compact' : '', readOnly ? 'tw-note-editor--readonly' : ''].filter(Boolean).join(' ')}>
      <EditorContent editor={editor} />
      {placeholder && empty && !readOnly ? (
        <p className="tw-note-editor__placeholder" aria-hidden="true">
          {placeholder}
        </p>
      ) : null}
      {slashAt && templateContext ? <TemplatePicker at={slashAt} context={templateContext} onDone={insertTemplate} /> : null}
    </div>
  );
}
