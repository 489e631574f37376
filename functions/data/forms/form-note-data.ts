import { FormNoteData } from '../../../shared/forms/forms.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import { parseStored } from '../../lib/table/item.js';

/** A FORM note's data as its schema reads it. */
export const formDataOf = (note: Pick<Note, 'noteId' | 'data'>): FormNoteData => parseStored(FormNoteData, note.data, `The data of FORM note ${note.noteId}`);
