import { Extension, textInputRule } from '@tiptap/core';
import { Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
import { WILDCARD } from '../../../../../shared/notes/note-constants.js';
import { pickWildcard, wildcardPositions } from './wildcards.js';

export interface NoteShortcutsOptions {
  /** '/' at the start of a word: the host opens the template picker at the caret. */
  onSlash: ((at: { left: number; top: number; bottom: number }) => void) | null;
}

/**
 * The editor shortcuts of spec notes §5 that StarterKit does not already give: '--' to a dash,
 * '...' to an ellipsis, F2 / Shift+F2 through wildcards and '/' for templates. Headings, quotes
 * and lists come from StarterKit's own markdown input rules.
 */
export const NoteShortcuts = Extension.create<NoteShortcutsOptions>({
  name: 'noteShortcuts',

  addOptions() {
    return { onSlash: null };
  },

  addInputRules() {
    return [textInputRule({ find: /--$/, replace: '—' }), textInputRule({ find: /\.\.\.$/, replace: '…' })];
  },

  addKeyboardShortcuts() {
    const jump = (backwards: boolean) => () => {
      const { state, view } = this.editor;
      const target = pickWildcard(wildcardPositions(state.doc), state.selection, backwards);
      if (target === null) return false;
      view.dispatch(state.tr.setSelection(TextSelection.create(state.doc, target, target + WILDCARD.length)).scrollIntoView());
      return true;
    };
    return { F2: jump(false), 'Shift-F2': jump(true) };
  },

  addProseMirrorPlugins() {
    const options = this.options;
    return [
      new Plugin({
        key: new PluginKey('noteTemplateSlash'),
        props: {
          handleTextInput(view, from, _to, text) {
            if (text !== '/' || !options.onSlash) return false;
            const before = view.state.doc.textBetween(Math.max(0, from - 1), from, '\n', '\n');
            if (before !== '' && !/\s/.test(before)) return false;
            const coords = view.coordsAtPos(from);
            options.onSlash({ left: coords.left, top: coords.top, bottom: coords.bottom });
            return true;
          },
        },
      }),
    ];
  },
});
