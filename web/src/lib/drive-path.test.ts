import { describe, expect, it } from 'vitest';
import { drivePath } from './drive.js';

describe('the path of a drive file', () => {
  it('is the folder and name without the access level and the upload id', () => {
    expect(drivePath('protected/public/Visit 3/8f1c0b25-3d7a-4ea3-b9e7-598b81d33aa8/phone-photo.heic')).toBe('public/Visit 3/phone-photo.heic');
    expect(drivePath('protected/public/abc/lab.pdf')).toBe('public/lab.pdf');
  });
  it('is null for a file outside the drive', () => {
    expect(drivePath('protected/patients/pat-1/sms/rash.png')).toBeNull();
  });
});
