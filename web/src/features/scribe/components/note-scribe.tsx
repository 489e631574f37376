import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { CopilotTemplateType } from '../../../../../shared/ai/transcription-schema.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import { Button } from '../../../components/ui/button.js';
import { useFeatureFlag } from '../../../lib/feature-flags.js';
import { audioContentType } from '../audio-upload.js';
import { scribeApi, scribeKeys, useTranscriptionStatus } from '../api/scribe-api.js';
import { isTerminal, pollDecision } from '../transcription-poll.js';
import { useKeepFocus } from '../use-keep-focus.js';
import '../scribe.css';
import { EvidencePanel } from './evidence-panel.js';
import { AudioUploadPanel } from './audio-upload-panel.js';
import { RecordingPanel } from './recording-panel.js';
import { TemplateStep, type TemplateChoice } from './template-step.js';
import { TranscriptionFailedPanel, TranscriptionProgressPanel } from './transcription-panels.js';

export interface NoteScribeProps {
  note: Note;
  patientId: string | null;
  editable: boolean;
  placement: 'top' | 'bottom';
  flushEdits(): Promise<void>;
  adoptServerNote(): Promise<void>;
}

/** The audio a transcription starts from: the recording's chunk folder, or one uploaded file. */
/** Spec notes §4: polling stops after 15 minutes; the run may still finish, and reopening the note shows it. */
const TIMED_OUT_MESSAGE = 'The note is taking longer than 15 minutes. Reopen the note later to see whether it finished.';

type AudioSource = { kind: 'recording'; filesPath: string } | { kind: 'upload'; file: File };

type Step = { kind: 'closed' } | { kind: 'recording' } | { kind: 'upload' } | { kind: 'templates'; source: AudioSource };

/**
 * The AI Copilot in a note window (spec notes §2, §4): record the visit or upload its audio, choose
 * templates, generate, follow the run; below the editor, the evidence for the generated text.
 */
export function NoteScribe(props: NoteScribeProps) {
  return props.placement === 'top' ? <ScribeTop {...props} /> : <ScribeBottom {...props} />;
}

function ScribeTop({ note, patientId, editable, flushEdits, adoptServerNote }: NoteScribeProps) {
  const copilot = useFeatureFlag('tidewell_copilot');
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  const [startedId, setStartedId] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [generating, setGenerating] = useState(false);
  const panelId = useId();
  const queryClient = useQueryClient();
  const transcriptionId = startedId ?? note.data.transcriptionId ?? null;
  const [pollStopped, setPollStopped] = useState(false);
  const status = useTranscriptionStatus(transcriptionId, { poll: !pollStopped });
  const current = status.data;
  const draft = note.status === 'DRAFT' && editable;

  const generate = async (source: AudioSource, choice: TemplateChoice) => {
    if (!patientId) return;
    setGenerating(true);
    setStartError(null);
    try {
      let filesPath: string;
      let fileKey: string | undefined;
      if (source.kind === 'upload') {
        const contentType = audioContentType(source.file);
        const signed = await scribeApi.signUpload({ patientId, noteId: note.noteId, fileName: source.file.name, contentType, size: source.file.size });
        await scribeApi.put(signed.signedUrl, source.file, contentType);
        filesPath = signed.filesPath;
        fileKey = signed.key;
      } else {
        filesPath = source.filesPath;
      }
      await flushEdits();
      const types: CopilotTemplateType[] = [
        ...(choice.templateIdent ? [] : (['SOAP_NOTE'] as const)),
        ...(choice.afterVisitSummary ? (['VISIT_SUMMARY'] as const) : []),
      ];
      const started = await scribeApi.start({
        filesPath,
        patientId,
        noteId: note.noteId,
        ...(fileKey ? { fileKey } : {}),
        ...(choice.templateIdent ? { templateIdent: choice.templateIdent } : {}),
        tidewellTemplateTypes: types,
      });
      queryClient.setQueryData(scribeKeys.status(started.transcriptionId), started);
      setStartedId(started.transcriptionId);
      setPollStopped(false);
      setStep({ kind: 'closed' });
      // The server wrote the run's id into the note (a new version): the window takes it before its next save.
      await adoptServerNote();
    } catch (error) {
      setStartError(error instanceof Error && error.message ? error.message : 'The transcription could not be started.');
    } finally {
      setGenerating(false);
    }
  };

  // Watching a run: the retry when it went quiet, the 15-minute limit, and on completion the note's new text.
  const watch = useRef<{ id: string | null; since: number; lastRetryAt: number | null; sawRunning: boolean }>({
    id: null,
    since: 0,
    lastRetryAt: null,
    sawRunning: false,
  });
  const [timedOut, setTimedOut] = useState<string | null>(null);
  useEffect(() => {
    if (!current) return;
    const w = watch.current;
    if (w.id !== current.transcriptionId) watch.current = { id: current.transcriptionId, since: Date.now(), lastRetryAt: null, sawRunning: false };
    const now = Date.now();
    const decision = pollDecision({
      status: current.status,
      updatedAt: current.updatedAt,
      startedAt: watch.current.since,
      now,
      lastRetryAt: watch.current.lastRetryAt,
    });
    if (!isTerminal(current.status)) watch.current.sawRunning = true;
    if (decision === 'retry') {
      watch.current.lastRetryAt = now;
      void scribeApi
        .retry(current.transcriptionId)
        .then((next) => queryClient.setQueryData(scribeKeys.status(next.transcriptionId), next))
        .catch(() => undefined);
    } else if (decision === 'timeout') {
      setTimedOut(current.transcriptionId);
      setPollStopped(true);
    } else if (current.status === 'completed' && watch.current.sawRunning) {
      watch.current.sawRunning = false;
      void adoptServerNote();
      void queryClient.invalidateQueries({ queryKey: scribeKeys.result(current.transcriptionId) });
    }
  }, [current, adoptServerNote, queryClient]);

  const stalled = current !== undefined && timedOut === current.transcriptionId;
  const running = current && !isTerminal(current.status) && current.status !== 'not_started' && !stalled;
  const failed = current && (current.status === 'failed' || current.status === 'cancelled' || stalled) && dismissed !== current.transcriptionId;
  const canStart = copilot && draft && !running && Boolean(patientId);
  const rootRef = useRef<HTMLDivElement>(null);
  useKeepFocus(rootRef, `${step.kind}|${Boolean(running)}|${Boolean(failed)}`);

  return (
    <div ref={rootRef} className="tw-scribe">
      {canStart && step.kind === 'closed' ? (
        <div className="tw-scribe__launch">
          <Button size="sm" variant="primary" aria-controls={panelId} onPress={() => setStep({ kind: 'recording' })}>
            AI Copilot
          </Button>
        </div>
      ) : null}
      <div id={panelId}>
        {step.kind === 'recording' && patientId ? (
          <RecordingPanel
            target={{ patientId, noteId: note.noteId }}
            onUploadInstead={() => setStep({ kind: 'upload' })}
            onNext={(filesPath) => setStep({ kind: 'templates', source: { kind: 'recording', filesPath } })}
            onClose={() => setStep({ kind: 'closed' })}
          />
        ) : null}
        {step.kind === 'upload' ? (
          <AudioUploadPanel
            onNext={(file) => setStep({ kind: 'templates', source: { kind: 'upload', file } })}
            onRecordInstead={() => setStep({ kind: 'recording' })}
            onClose={() => setStep({ kind: 'closed' })}
          />
        ) : null}
        {step.kind === 'templates' ? (
          <TemplateStep
            generating={generating}
            error={startError}
            onGenerate={(choice) => void generate(step.source, choice)}
            onDiscard={() => {
              setStartError(null);
              setStep({ kind: 'closed' });
            }}
          />
        ) : null}
      </div>
      {running && current ? <TranscriptionProgressPanel status={current} /> : null}
      {failed && current ? (
        <TranscriptionFailedPanel message={stalled ? TIMED_OUT_MESSAGE : current.message} onDismiss={() => setDismissed(current.transcriptionId)} />
      ) : null}
    </div>
  );
}

function ScribeBottom({ note, patientId }: NoteScribeProps) {
  const transcriptionId = note.data.transcriptionId ?? null;
  const status = useTranscriptionStatus(transcriptionId, { poll: false });
  if (!transcriptionId || status.data?.status !== 'completed') return null;
  return <EvidencePanel transcriptionId={transcriptionId} patientId={patientId} />;
}
