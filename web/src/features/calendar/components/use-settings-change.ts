import { useState } from 'react';
import { isApiError } from '../../../lib/api-error.js';
import { showToast } from '../../../lib/toasts.js';
import { useCalendarSettingsChange } from '../api/calendar-api.js';

/** Sends one calendar settings change: field errors go to the form, anything else to a toast; true when saved. */
export function useSettingsChange() {
  const change = useCalendarSettingsChange();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const run = async (request: Parameters<typeof change.mutateAsync>[0], done: string): Promise<boolean> => {
    try {
      await change.mutateAsync(request);
      setErrors({});
      showToast(done, { tone: 'success' });
      return true;
    } catch (error) {
      const fieldErrors = isApiError(error) ? error.fieldErrors : {};
      setErrors(fieldErrors);
      if (!Object.keys(fieldErrors).length) showToast(error instanceof Error ? error.message : 'Not saved', { tone: 'error' });
      return false;
    }
  };
  return { run, errors, setErrors, isPending: change.isPending };
}
