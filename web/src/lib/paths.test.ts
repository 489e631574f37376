import { describe, expect, it } from 'vitest';
import { paths } from './paths.js';

describe('paths', () => {
  it('builds the routes of spec shell §2.1', () => {
    expect(paths.patient('pat-0011')).toBe('/patients/pat-0011');
    expect(paths.editPatient('a/b')).toBe('/patients/a%2Fb/edit');
    expect(paths.files()).toBe('/files/public/');
    expect(paths.contacts()).toBe('/contacts/list');
    expect(paths.teamMember('u-1')).toBe('/new-settings/team/u-1');
    expect(paths.noteResult('n1', { type: 'lab', responseCode: undefined })).toBe('/note-result/n1?type=lab');
    expect(paths.smsConversation('+15415550188', '+15415550100')).toBe('/messages/sms/%2B15415550188/%2B15415550100');
    expect(paths.newScheduledMessage({ patientId: 'pat-1', from: '+15415550100', text: 'Hi there' })).toBe(
      '/messages/scheduled/new?noteType=SMS&patientId=pat-1&from=%2B15415550100&text=Hi+there',
    );
    expect(paths.scheduledMessage('ev-1')).toBe('/messages/scheduled/ev-1');
  });
});
