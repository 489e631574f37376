/** Spec chart-data §2a: which viewer shows a file, by its extension. */
export type ViewerKind = 'ccd' | 'csv' | 'sheet' | 'image' | 'heic' | 'pdf' | 'docx' | 'audio' | 'video' | 'ics' | 'unsupported';

const KINDS: Record<string, ViewerKind> = {
  xml: 'ccd',
  csv: 'csv',
  xlsx: 'sheet',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  bmp: 'image',
  png: 'image',
  tif: 'image',
  tiff: 'image',
  heic: 'heic',
  pdf: 'pdf',
  docx: 'docx',
  wav: 'audio',
  mp3: 'audio',
  oga: 'audio',
  weba: 'audio',
  mpeg: 'audio',
  webm: 'video',
  mp4: 'video',
  ics: 'ics',
};

export function viewerKind(extension: string): ViewerKind {
  return KINDS[extension.toLowerCase()] ?? 'unsupported';
}

/** A jpg whose width is twice its height (within 0.01) is a 360° panorama (spec chart-data §9). */
export const PANORAMA_TOLERANCE = 0.01;
export function isPanorama(extension: string, width: number, height: number): boolean {
  return (extension === 'jpg' || extension === 'jpeg') && height > 0 && Math.abs(width / height - 2) <= PANORAMA_TOLERANCE;
}

/** Panorama drag: degrees per pixel, and the vertical angle's clamp. */
export const PANORAMA_SENSITIVITY = 0.1;
export const PANORAMA_PITCH_LIMIT = 85;
export function clampPitch(pitch: number): number {
  return Math.max(-PANORAMA_PITCH_LIMIT, Math.min(PANORAMA_PITCH_LIMIT, pitch));
}
