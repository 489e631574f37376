import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { ChartProposal, EvidencedSentence, TranscriptSegment, TranscriptionResult } from '../../../../../shared/ai/transcription-schema.js';
import { Badge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { scribeApi, scribeKeys, useTranscriptionResult } from '../api/scribe-api.js';

export interface EvidencePanelProps {
  transcriptionId: string;
  patientId: string | null;
}

const KIND_LABEL: Record<ChartProposal['kind'], string> = {
  'medication-start': 'Start medication',
  'medication-stop': 'Stop medication',
  allergy: 'Allergy',
  diagnosis: 'Diagnosis',
  'family-history': 'Family history',
  'past-history': 'Past history',
  vitals: 'Vitals',
};

/** Kinds written with an ICD-10 code: the code and its name are confirmed before anything is written. */
const CODED: readonly ChartProposal['kind'][] = ['diagnosis', 'family-history', 'past-history'];

const CONFIRM_TITLE: Partial<Record<ChartProposal['kind'], string>> = {
  diagnosis: 'Add this diagnosis to the chart?',
  'family-history': 'Add this to the family history?',
  'past-history': 'Add this to the past history?',
};

const RELATION_LABEL: Record<string, string> = { MTH: 'Mother', FTH: 'Father', BRO: 'Brother', SIS: 'Sister', GRPRN: 'Grandparent' };

function formatTime(seconds: number): string {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Below the generated note: every sentence with the transcript lines it came from (and that stretch
 * of the recording), sentences without evidence marked for checking, and the chart updates found.
 */
export function EvidencePanel({ transcriptionId, patientId }: EvidencePanelProps) {
  const result = useTranscriptionResult(transcriptionId, true);
  const titleId = useId();
  if (result.isPending) return <Spinner label="Loading the evidence" />;
  if (result.isError) return <p className="tw-field__error">The evidence for this note could not be loaded.</p>;
  const data = result.data;
  const unchecked = [...data.note.flatMap((s) => s.sentences), ...data.afterVisitSummary].filter((s) => s.segmentIds.length === 0).length;

  return (
    <section className="tw-scribe-evidence" aria-labelledby={titleId}>
      <h3 id={titleId} className="tw-scribe-evidence__title">
        Evidence from the visit
      </h3>
      <p className="tw-scribe-evidence__engines">
        {data.engines.speech.label} · {data.engines.text.label}
      </p>
      <p className="tw-scribe-evidence__hint">
        Select a sentence to see the transcript lines it came from and hear them.
        {unchecked ? ` ${unchecked} sentence${unchecked === 1 ? '' : 's'} without evidence ${unchecked === 1 ? 'is' : 'are'} marked Check.` : ''}
      </p>
      <SentenceList result={data} />
      <Proposals transcriptionId={transcriptionId} result={data} patientId={patientId} />
    </section>
  );
}

function SentenceList({ result }: { result: TranscriptionResult }) {
  const [open, setOpen] = useState<string | null>(null);
  const groups = [
    ...result.note.map((section, i) => ({ key: `n${i}`, heading: section.heading, sentences: section.sentences })),
    ...(result.afterVisitSummary.length ? [{ key: 'avs', heading: 'After Visit Summary', sentences: result.afterVisitSummary }] : []),
  ];
  const segments = new Map(result.transcript.map((s) => [s.id, s]));
  return (
    <div className="tw-scribe-sentences">
      {groups.map((group) => (
        <div key={group.key} className="tw-scribe-sentences__group">
          <h4 className="tw-scribe-sentences__heading">{group.heading}</h4>
          <ul>
            {group.sentences.map((sentence, i) => {
              const key = `${group.key}-${i}`;
              return (
                <Sentence
                  key={key}
                  sentence={sentence}
                  lines={sentence.segmentIds.map((id) => segments.get(id)).filter((s): s is TranscriptSegment => Boolean(s))}
                  open={open === key}
                  onToggle={() => setOpen(open === key ? null : key)}
                  transcriptionId={result.transcriptionId}
                />
              );
            })}
          </ul>
        </div>
      ))}
    </div>
  );
}

function Sentence({
  sentence,
  lines,
  open,
  onToggle,
  transcriptionId,
}: {
  sentence: EvidencedSentence;
  lines: TranscriptSegment[];
  open: boolean;
  onToggle(): void;
  transcriptionId: string;
}) {
  const regionId = useId();
  if (lines.length === 0) {
    return (
      <li className="tw-scribe-sentence tw-scribe-sentence--unchecked">
        <span>{sentence.text}</span> <Badge tone="warning">Check: no evidence in the transcript</Badge>
      </li>
    );
  }
  return (
    <li className="tw-scribe-sentence">
      <button type="button" className="tw-scribe-sentence__button" aria-expanded={open} aria-controls={regionId} onClick={onToggle}>
        {sentence.text}
      </button>
      {open ? (
        <div id={regionId} className="tw-scribe-transcript" role="region" aria-label="Transcript lines">
          <ul>
            {lines.map((line) => (
              <li key={line.id}>
                <span className="tw-scribe-transcript__meta">
                  {line.speaker} · {formatTime(line.start)}–{formatTime(line.end)}
                </span>{' '}
                {line.text}
              </li>
            ))}
          </ul>
          <Playback transcriptionId={transcriptionId} start={Math.min(...lines.map((l) => l.start))} end={Math.max(...lines.map((l) => l.end))} />
        </div>
      ) : null}
    </li>
  );
}

/** Plays the stretch of the recording the sentence came from, and stops at its end. */
function Playback({ transcriptionId, start, end }: { transcriptionId: string; start: number; end: number }) {
  const recording = useQuery({
    queryKey: scribeKeys.recording(transcriptionId),
    queryFn: ({ signal }) => scribeApi.recording(transcriptionId, signal),
    // Presigned links expire; a fresh one every few minutes is plenty.
    staleTime: 240_000,
  });
  const audio = useRef<HTMLAudioElement>(null);

  useEffect(() => {
    const el = audio.current;
    if (!el) return undefined;
    const onTime = () => {
      if (el.currentTime >= end) el.pause();
    };
    el.addEventListener('timeupdate', onTime);
    return () => el.removeEventListener('timeupdate', onTime);
  }, [end, recording.data]);

  if (recording.isError) return <p className="tw-scribe-transcript__meta">The recording is not available.</p>;
  if (!recording.data) return null;
  const play = () => {
    const el = audio.current;
    if (!el) return;
    el.currentTime = start;
    void el.play().catch(() => undefined);
  };
  return (
    <div className="tw-scribe-playback">
      <Button size="sm" onPress={play}>
        Play {formatTime(start)}–{formatTime(end)}
      </Button>
      <audio ref={audio} src={recording.data.signedUrl} preload="metadata" controls aria-label="Visit recording" />
    </div>
  );
}

function Proposals({ transcriptionId, result, patientId }: { transcriptionId: string; result: TranscriptionResult; patientId: string | null }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ChartProposal | null>(null);
  const decide = useMutation({
    mutationFn: ({ proposalId, decision }: { proposalId: string; decision: 'accept' | 'reject' }) => scribeApi.decide(transcriptionId, proposalId, decision),
    onSuccess: (updated) => {
      setError(null);
      setConfirming(null);
      queryClient.setQueryData<TranscriptionResult>(scribeKeys.result(transcriptionId), (old) =>
        old ? { ...old, proposals: old.proposals.map((p) => (p.proposalId === updated.proposalId ? updated : p)) } : old,
      );
      if (updated.status !== 'ACCEPTED' || !patientId) return;
      // The chart's cards (health summary) read under ['patients', patientId, …]; spoken vitals become a vitals note in the timeline.
      void queryClient.invalidateQueries({ queryKey: ['patients', patientId] });
      if (updated.kind === 'vitals') void queryClient.invalidateQueries({ queryKey: ['notes', 'timeline'] });
    },
    onError: (e) => {
      setConfirming(null);
      setError(e instanceof Error ? e.message : 'The chart could not be updated.');
    },
  });
  if (result.proposals.length === 0) return null;
  const segments = new Map(result.transcript.map((s) => [s.id, s]));
  const evidenceOf = (p: ChartProposal) =>
    p.evidence ??
    p.segmentIds
      .map((id) => segments.get(id)?.text)
      .filter(Boolean)
      .join(' … ');
  const accept = (p: ChartProposal) => (CODED.includes(p.kind) ? setConfirming(p) : decide.mutate({ proposalId: p.proposalId, decision: 'accept' }));

  return (
    <div className="tw-scribe-proposals">
      <h4 className="tw-scribe-sentences__heading">Chart updates found in the visit</h4>
      <p className="tw-scribe-evidence__hint">Nothing is added until you accept it. Each update shows what was said.</p>
      <ul>
        {result.proposals.map((p) => {
          const evidence = evidenceOf(p);
          const pending = decide.isPending && decide.variables?.proposalId === p.proposalId;
          return (
            <li key={p.proposalId} className="tw-scribe-proposal">
              <div className="tw-scribe-proposal__text">
                <span className="tw-scribe-proposal__kind">{KIND_LABEL[p.kind]}</span> {p.summary}
                {evidence ? (
                  <p className="tw-scribe-proposal__evidence">
                    <span className="tw-scribe-proposal__evidence-label">Heard:</span> “{evidence}”
                  </p>
                ) : (
                  <Badge tone="warning">Check: no evidence in the transcript</Badge>
                )}
              </div>
              {p.status === 'PROPOSED' ? (
                // Both choices look alike: nothing is pre-selected for the clinician.
                <div className="tw-scribe-proposal__actions">
                  <Button size="sm" aria-label={`Accept: ${p.summary}`} isDisabled={pending} onPress={() => accept(p)}>
                    Accept
                  </Button>
                  <Button
                    size="sm"
                    aria-label={`Reject: ${p.summary}`}
                    isDisabled={pending}
                    onPress={() => decide.mutate({ proposalId: p.proposalId, decision: 'reject' })}
                  >
                    Reject
                  </Button>
                </div>
              ) : (
                <Badge tone={p.status === 'ACCEPTED' ? 'info' : 'neutral'}>{p.status === 'ACCEPTED' ? 'Added to the chart' : 'Rejected'}</Badge>
              )}
            </li>
          );
        })}
      </ul>
      {error ? (
        <p className="tw-field__error" role="alert">
          {error}
        </p>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          isOpen
          onOpenChange={(open) => {
            if (!open) setConfirming(null);
          }}
          title={CONFIRM_TITLE[confirming.kind] ?? 'Add this to the chart?'}
          confirmLabel="Add to the chart"
          isPending={decide.isPending}
          onConfirm={() => decide.mutate({ proposalId: confirming.proposalId, decision: 'accept' })}
        >
          <dl className="tw-scribe-confirm">
            <dt>ICD-10 code</dt>
            <dd>{String(confirming.fields.code ?? '')}</dd>
            <dt>Name</dt>
            <dd>{String(confirming.fields.name ?? '')}</dd>
            {confirming.kind === 'family-history' && confirming.fields.relation !== undefined ? (
              <>
                <dt>Family member</dt>
                <dd>{RELATION_LABEL[String(confirming.fields.relation)] ?? String(confirming.fields.relation)}</dd>
              </>
            ) : null}
            <dt>Heard</dt>
            <dd>“{evidenceOf(confirming)}”</dd>
          </dl>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
