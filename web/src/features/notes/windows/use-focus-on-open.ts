import { useEffect, type RefObject } from 'react';
import type { NoteType } from '../../../../../shared/notes/note-constants.js';
import type { NoteEditorHandle } from '../editor/note-editor.js';

/**
 * A note window that opens takes focus where the work is: the editor of an editable note, the
 * first field of a vitals or email note, the window's heading when the note is read-only. It waits
 * a frame, so a menu or the palette that just closed has handed focus back first; by then a user
 * who has already gone into the window keeps their place.
 */
export function useFocusOnOpen({
  editable,
  noteType,
  titleId,
  editorRef,
  bodyRef,
}: {
  editable: boolean;
  noteType: NoteType;
  titleId: string;
  editorRef: RefObject<NoteEditorHandle | null>;
  bodyRef: RefObject<HTMLElement | null>;
}): void {
  useEffect(() => {
    const frame = window.requestAnimationFrame(() => {
      // Someone who already went into the window (a click, a Tab) keeps where they are.
      const windowElement = document.getElementById(titleId)?.closest('[role="dialog"]');
      const active = document.activeElement;
      if (windowElement && active instanceof HTMLElement && active !== windowElement && windowElement.contains(active)) return;
      const firstField = bodyRef.current?.querySelector<HTMLElement>('input:not([readonly]), textarea:not([readonly])');
      if (editable && (noteType === 'VITALS' || noteType === 'EMAIL') && firstField) firstField.focus();
      else if (editable && editorRef.current) editorRef.current.focus();
      else {
        const heading = document.getElementById(titleId);
        if (heading) {
          heading.tabIndex = -1;
          heading.focus();
        }
      }
    });
    return () => window.cancelAnimationFrame(frame);
    // Once, when the window's note first shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
