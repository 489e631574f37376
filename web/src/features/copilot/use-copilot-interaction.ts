import { useMemo } from 'react';
import { useMatch } from 'react-router-dom';
import { useCopilotFlags } from './api/copilot-api.js';
import { useCopilot } from './copilot-context.js';

/**
 * The palette's 'New Interaction' → Copilot (spec shell §2.6, when enabled by the practice's
 * `tidewell_copilot` gate), with the chart's patient in context when a chart is on screen.
 */
export function useCopilotInteraction(): { id: string; label: string; perform: () => void } | null {
  const { openCopilot } = useCopilot();
  const flags = useCopilotFlags();
  const match = useMatch({ path: '/patients/:patientId', end: false });
  const routePatient = match?.params.patientId;
  const patientId = routePatient && routePatient !== 'new' ? routePatient : null;
  const enabled = flags.data?.tidewell_copilot === true;
  return useMemo(() => (enabled ? { id: 'new-copilot', label: 'Copilot', perform: () => openCopilot(patientId) } : null), [enabled, openCopilot, patientId]);
}
