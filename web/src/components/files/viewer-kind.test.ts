import { describe, expect, it } from 'vitest';
import { clampPitch, isPanorama, viewerKind } from './viewer-kind.js';

describe('the viewer for a file type (spec chart-data §2a)', () => {
  it('maps each listed extension to its viewer and anything else to the fallback', () => {
    expect(['xml', 'csv', 'xlsx', 'jpg', 'TIFF', 'HEIC', 'pdf', 'docx', 'wav', 'weba', 'mpeg', 'webm', 'mp4', 'ics'].map(viewerKind)).toEqual([
      'ccd',
      'csv',
      'sheet',
      'image',
      'image',
      'heic',
      'pdf',
      'docx',
      'audio',
      'audio',
      'audio',
      'video',
      'video',
      'ics',
    ]);
    expect(viewerKind('txt')).toBe('unsupported');
    expect(viewerKind('')).toBe('unsupported');
  });

  it('treats a jpg within 0.01 of 2:1 as a panorama, and clamps the vertical angle to −85..85', () => {
    expect(isPanorama('jpg', 2000, 1000)).toBe(true);
    expect(isPanorama('jpeg', 2010, 1000)).toBe(true);
    expect(isPanorama('jpg', 2011, 1000)).toBe(false);
    expect(isPanorama('png', 2000, 1000)).toBe(false);
    expect([clampPitch(120), clampPitch(-90), clampPitch(12)]).toEqual([85, -85, 12]);
  });
});
