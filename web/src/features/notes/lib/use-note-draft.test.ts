import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-error.js';
import { errorState, saveErrorMessage } from './use-note-draft.js';

describe('a failed note save (spec notes §8)', () => {
  it("says 'There was an error saving the note.' when no server message came back", () => {
    expect(saveErrorMessage(new TypeError('Failed to fetch'))).toBe('There was an error saving the note.');
    expect(saveErrorMessage(new ApiError(0, ''))).toBe('There was an error saving the note.');
  });

  it("formats the server's message as 'Error saving: {message}' and '{status} Error: {message}'", () => {
    expect(saveErrorMessage(new ApiError(400, 'There is still a wildcard in the note'))).toBe('Error saving: There is still a wildcard in the note');
    expect(saveErrorMessage(new ApiError(503, 'Service Unavailable'))).toBe('503 Error: Service Unavailable');
  });

  it('offers Reload only for a stale noteVersion (409)', () => {
    const stale = errorState(new ApiError(409, 'This note was changed by someone else. Reload it to see the latest version.'));
    expect(stale).toEqual({
      kind: 'error',
      message: 'Error saving: This note was changed by someone else. Reload it to see the latest version.',
      stale: true,
    });
    expect(errorState(new ApiError(400, 'x'))).not.toHaveProperty('stale');
  });
});
