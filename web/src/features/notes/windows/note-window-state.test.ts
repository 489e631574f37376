import { describe, expect, it } from 'vitest';
import { initialNoteWindows, noteWindowsReducer, type NoteWindowsAction, type NoteWindowsState } from './note-window-state.js';

const run = (...actions: NoteWindowsAction[]): NoteWindowsState => actions.reduce(noteWindowsReducer, initialNoteWindows);
const open = (noteId: string, patientId = 'pat-0001'): NoteWindowsAction => ({ type: 'open', noteId, patientId, noteType: 'NOTE' });

describe('note windows', () => {
  it('keeps notes of several patients open at once, newest last', () => {
    const state = run(open('n1', 'pat-0001'), open('n2', 'pat-0002'));
    expect(state.windows.map((w) => [w.noteId, w.patientId, w.stage])).toEqual([
      ['n1', 'pat-0001', 'default'],
      ['n2', 'pat-0002', 'default'],
    ]);
  });

  it('minimizes to the tray and restores by opening again, without a second window', () => {
    const state = run(open('n1'), open('n2'), { type: 'stage', noteId: 'n1', stage: 'minimized' }, open('n1'));
    expect(state.windows.map((w) => [w.noteId, w.stage])).toEqual([
      ['n2', 'default'],
      ['n1', 'default'],
    ]);
  });

  it('keeps fullscreen when an open note is opened again, and closes one window only', () => {
    const state = run(open('n1'), open('n2'), { type: 'stage', noteId: 'n2', stage: 'fullscreen' }, open('n2'), { type: 'close', noteId: 'n1' });
    expect(state.windows.map((w) => [w.noteId, w.stage])).toEqual([['n2', 'fullscreen']]);
  });

  it('tracks unsaved changes per window', () => {
    const state = run(open('n1'), open('n2'), { type: 'dirty', noteId: 'n2', dirty: true });
    expect(state.windows.map((w) => w.dirty)).toEqual([false, true]);
  });
});
