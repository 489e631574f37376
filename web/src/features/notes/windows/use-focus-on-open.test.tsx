// @vitest-environment happy-dom
import { act, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { NoteEditorHandle } from '../editor/note-editor.js';
import { useFocusOnOpen } from './use-focus-on-open.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A read-only note's window: a heading and a menu button, as the window lays them out. */
function ReadOnlyWindow() {
  const editorRef = useRef<NoteEditorHandle>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  useFocusOnOpen({ editable: false, noteType: 'NOTE', titleId: 'title', editorRef, bodyRef });
  return (
    <section role="dialog" aria-labelledby="title">
      <h2 id="title">Note</h2>
      <button type="button">Note menu</button>
      <div ref={bodyRef} />
    </section>
  );
}

const nextFrame = () => new Promise<void>((resolve) => window.requestAnimationFrame(() => resolve()));

let host: HTMLElement;
afterEach(() => host.remove());

/** Renders the window and runs its effects in this task, so its frame has not come yet. */
function openWindow() {
  host = document.createElement('div');
  document.body.append(host);
  act(() => createRoot(host).render(<ReadOnlyWindow />));
}

describe('a note window that opens', () => {
  it("takes focus to a read-only note's heading a frame later", async () => {
    openWindow();
    await nextFrame();
    expect(document.activeElement?.textContent).toBe('Note');
  });

  it('leaves focus on a control the user reached inside the window before that frame', async () => {
    openWindow();
    host.querySelector('button')?.focus();
    await nextFrame();
    expect(document.activeElement?.textContent).toBe('Note menu');
  });
});
