/** Apart from NOTE_MESSAGES so the note windows, on every signed-in screen, carry this one toast and not the notes' whole message list. */
export const NOTE_CREATE_ERROR = 'There was an error creating a new note';
