import { useMemo } from 'react';
import { useMatch } from 'react-router-dom';
import { activePartnerApps, partnerAppLabel, usePartnerApps } from '../../../lib/partner-apps.js';
import { EPRESCRIBE_LABEL, useEPrescribe } from './use-eprescribe.js';
import { CREATABLE_NOTE_TYPES, NOTE_TYPE_LABEL } from '../note-types.js';
import { useNoteWindows } from './note-windows-context.js';

export interface NewNoteInteraction {
  id: string;
  label: string;
  perform: () => void;
}

/**
 * 'New Interaction' entries for the command palette: a hidden DRAFT (hidden: true, locked from
 * the patient portal; spec notes §4) of each type this release writes, for the chart on screen,
 * or with no patient yet (chosen in the window) elsewhere.
 */
export function useNewNoteInteractions(): readonly NewNoteInteraction[] {
  const { createNote } = useNoteWindows();
  const match = useMatch({ path: '/patients/:patientId', end: false });
  const routePatient = match?.params.patientId;
  const patientId = routePatient && routePatient !== 'new' ? routePatient : null;
  const partnerApps = usePartnerApps();
  const ePrescribe = useEPrescribe();
  return useMemo(
    () => [
      ...CREATABLE_NOTE_TYPES.flatMap((type) => {
        const entry = { id: `new-note-${type}`, label: NOTE_TYPE_LABEL[type], perform: () => void createNote({ patientId, noteType: type, hidden: true }) };
        // Spec shell §2.6: ePrescribe (DoseSpot) follows In-house Prescription, for prescribers only.
        if (type !== 'RX' || !ePrescribe) return [entry];
        return [entry, { id: 'eprescribe', label: EPRESCRIBE_LABEL, perform: () => ePrescribe(patientId) }];
      }),
      // Spec shell §2.6: each active partner app, opening its PARTNER note window.
      ...activePartnerApps(partnerApps.data).map((app) => ({
        id: `new-partner-${app.partnerAppId}`,
        label: partnerAppLabel(app),
        perform: () => void createNote({ patientId, noteType: app.noteType, hidden: true, data: { partnerAppId: app.partnerAppId } }),
      })),
    ],
    [createNote, patientId, partnerApps.data, ePrescribe],
  );
}
