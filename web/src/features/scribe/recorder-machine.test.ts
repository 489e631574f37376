import { describe, expect, it } from 'vitest';
import {
  formatElapsed,
  initialRecorder,
  isRecordingActive,
  limitWarning,
  recorderReducer,
  type RecorderEvent,
  type RecorderModel,
} from './recorder-machine.js';

const run = (events: RecorderEvent[], from: RecorderModel = initialRecorder, limits?: { limitSeconds: number; warningBeforeSeconds: number }) =>
  events.reduce((m, e) => recorderReducer(m, e, limits), from);
const ticks = (n: number): RecorderEvent[] => Array.from({ length: n }, () => ({ type: 'tick' }));
const started: RecorderEvent[] = [{ type: 'start' }, { type: 'media-acquired' }, { type: 'recording-started' }];

describe('recorderReducer', () => {
  it('goes idle → acquiring_media → ready → recording', () => {
    expect(run([{ type: 'start' }]).state).toBe('acquiring_media');
    expect(run([{ type: 'start' }, { type: 'media-acquired' }]).state).toBe('ready');
    expect(run(started).state).toBe('recording');
  });

  it('fails when the microphone is refused and can start again', () => {
    const failed = run([{ type: 'start' }, { type: 'media-failed', message: 'Permission denied' }]);
    expect(failed).toMatchObject({ state: 'failed', error: 'Permission denied' });
    expect(recorderReducer(failed, { type: 'start' })).toMatchObject({ state: 'acquiring_media', error: null });
  });

  it('counts only recorded seconds: paused time does not tick', () => {
    const m = run([...started, ...ticks(3), { type: 'pause' }, ...ticks(5), { type: 'resume' }, ...ticks(2)]);
    expect(m).toMatchObject({ state: 'recording', elapsedSeconds: 5 });
  });

  it('stops from recording or paused, then stopped with or without a save failure', () => {
    expect(run([...started, { type: 'stop' }]).state).toBe('stopping');
    expect(run([...started, { type: 'pause' }, { type: 'stop' }]).state).toBe('stopping');
    expect(run([...started, { type: 'stop' }, { type: 'stopped', saveFailed: false }])).toMatchObject({
      state: 'stopped',
      saveFailed: false,
      forcedStop: false,
    });
    expect(run([...started, { type: 'stop' }, { type: 'stopped', saveFailed: true }]).saveFailed).toBe(true);
  });

  it('ignores events that do not apply (a late tick, pause while idle, resume while recording)', () => {
    expect(run([{ type: 'pause' }])).toBe(initialRecorder);
    const rec = run(started);
    expect(recorderReducer(rec, { type: 'resume' })).toBe(rec);
    const stopped = run([...started, { type: 'stop' }, { type: 'stopped', saveFailed: false }]);
    expect(recorderReducer(stopped, { type: 'tick' })).toBe(stopped);
  });

  it('forces a stop at the limit and warns from 300 s before it', () => {
    const limits = { limitSeconds: 10, warningBeforeSeconds: 3 };
    expect(limitWarning(run([...started, ...ticks(6)], initialRecorder, limits), limits)).toBe(false);
    expect(limitWarning(run([...started, ...ticks(7)], initialRecorder, limits), limits)).toBe(true);
    const atLimit = run([...started, ...ticks(12)], initialRecorder, limits);
    expect(atLimit).toMatchObject({ state: 'stopping', elapsedSeconds: 10, forcedStop: true });
    expect(limitWarning(atLimit, limits)).toBe(false);
  });

  it('uses the spec limit of 5,400 s with the warning at 5,100 s by default', () => {
    const at = (n: number): RecorderModel => ({ ...initialRecorder, state: 'recording', elapsedSeconds: n });
    expect(limitWarning(at(5099))).toBe(false);
    expect(limitWarning(at(5100))).toBe(true);
    expect(recorderReducer(at(5399), { type: 'tick' })).toMatchObject({ state: 'stopping', forcedStop: true, elapsedSeconds: 5400 });
  });

  it('discards back to idle only after stopping', () => {
    const stopped = run([...started, ...ticks(4), { type: 'stop' }, { type: 'stopped', saveFailed: true }]);
    expect(recorderReducer(stopped, { type: 'discard' })).toEqual(initialRecorder);
    const rec = run(started);
    expect(recorderReducer(rec, { type: 'discard' })).toBe(rec);
  });
});

describe('helpers', () => {
  it('formats the timer', () => {
    expect(formatElapsed(0)).toBe('00:00');
    expect(formatElapsed(65)).toBe('01:05');
    expect(formatElapsed(5400)).toBe('1:30:00');
  });
  it('knows which states hold the microphone', () => {
    expect(['recording', 'paused', 'stopping'].every((s) => isRecordingActive(s as never))).toBe(true);
    expect(isRecordingActive('stopped')).toBe(false);
  });
});
