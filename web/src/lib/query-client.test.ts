import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { shouldRetry } from './query-client.js';

describe('shouldRetry', () => {
  it('never retries a client error, retries other failures twice', () => {
    expect(shouldRetry(0, new ApiError(404, 'Not found'))).toBe(false);
    expect(shouldRetry(0, new ApiError(400, 'Bad'))).toBe(false);
    expect(shouldRetry(0, new ApiError(503, 'Unavailable'))).toBe(true);
    expect(shouldRetry(1, new ApiError(0, 'Network response was not ok'))).toBe(true);
    expect(shouldRetry(2, new ApiError(500, 'Oops'))).toBe(false);
  });
});
