/** An API failure as the screens need it: the status, a message safe to show, and field errors keyed by field path. */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: Record<string, string>;

  constructor(status: number, message: string, fieldErrors: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** The spec's wording for any failed fetch that carries no message of its own. */
export const NETWORK_ERROR_MESSAGE = 'Network response was not ok';

export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  let message = NETWORK_ERROR_MESSAGE;
  let fieldErrors: Record<string, string> = {};
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') {
      const record = body as { message?: unknown; fieldErrors?: unknown };
      if (typeof record.message === 'string' && record.message) message = record.message;
      if (record.fieldErrors && typeof record.fieldErrors === 'object') {
        fieldErrors = Object.fromEntries(
          Object.entries(record.fieldErrors as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        );
      }
    }
  } catch {
    // A body that is not JSON keeps the generic message.
  }
  return new ApiError(response.status, message, fieldErrors);
}
