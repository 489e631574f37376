import { useSyncExternalStore } from 'react';

/**
 * Which notes are recording right now, for the shell's 'Recording in progress' banner (spec shell
 * §2.3) while the recorder itself lives in a note window.
 */
const recording = new Set<string>();
const listeners = new Set<() => void>();

export function setNoteRecording(noteId: string, active: boolean): void {
  if (active === recording.has(noteId)) return;
  if (active) recording.add(noteId);
  else recording.delete(noteId);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isAnyNoteRecording(): boolean {
  return recording.size > 0;
}

export function useAnyNoteRecording(): boolean {
  return useSyncExternalStore(subscribe, isAnyNoteRecording, () => false);
}
