import { describe, expect, it } from 'vitest';
import { faxCallbackToken, faxSettingsFromEnv, FaxVendorError, SinchFax, type FaxExchange } from './fax.js';

describe('SinchFax', () => {
  it('sends the PDF as multipart to the project faxes endpoint with Basic auth and reads the Fax resource', async () => {
    let seen: { url: string; headers: Record<string, string>; form: FormData } | undefined;
    const exchange: FaxExchange = async (url, init) => {
      seen = { url, headers: init.headers, form: init.body };
      // Sinch Fax API v3 answers POST /faxes with the Fax resource.
      return {
        status: 200,
        body: JSON.stringify({
          id: '01HXVD9DR5QXHA3Y5XKW9YMHX3',
          direction: 'OUTBOUND',
          from: '+15415550190',
          to: '+15415557788',
          status: 'QUEUED',
          numberOfPages: 2,
          projectId: 'proj-1',
        }),
      };
    };
    const fax = new SinchFax({ baseUrl: 'https://fax.api.sinch.com/', projectId: 'proj-1', key: 'key-id:key-secret', exchange });
    const pdf = new TextEncoder().encode('%PDF-1.7 test');
    const sent = await fax.send({
      to: '+15415557788',
      from: '+15415550190',
      pdf,
      fileName: 'fax.pdf',
      callbackUrl: 'https://api.example/v1/partner-deliveries/sinch-fax/faxes',
    });
    expect(sent).toEqual({ faxId: '01HXVD9DR5QXHA3Y5XKW9YMHX3', status: 'QUEUED', pages: 2 });
    expect(seen!.url).toBe('https://fax.api.sinch.com/v3/projects/proj-1/faxes');
    expect(seen!.headers.authorization).toBe(`Basic ${Buffer.from('key-id:key-secret').toString('base64')}`);
    expect(seen!.form.get('to')).toBe('+15415557788');
    expect(seen!.form.get('from')).toBe('+15415550190');
    // Sinch signs no callback: the URL carries the practice's token.
    expect(seen!.form.get('callbackUrl')).toBe(`https://api.example/v1/partner-deliveries/sinch-fax/faxes?token=${faxCallbackToken('key-id:key-secret')}`);
    expect(seen!.form.get('callbackUrlContentType')).toBe('application/json');
    const file = seen!.form.get('file') as Blob;
    expect(file.type).toBe('application/pdf');
    expect(new TextDecoder().decode(await file.arrayBuffer())).toBe('%PDF-1.7 test');
  });

  it("surfaces the vendor's error message and refuses an answer without a fax id", async () => {
    const refusing = new SinchFax({
      baseUrl: 'https://fax.api.sinch.com',
      projectId: 'p',
      key: 'k:s',
      exchange: async () => ({ status: 400, body: JSON.stringify({ code: 400, status: 'INVALID_ARGUMENT', message: 'Invalid phone number' }) }),
    });
    await expect(
      refusing.send({ to: '+1', from: '+15415550190', pdf: new Uint8Array(), fileName: 'a.pdf', callbackUrl: 'https://api.example/cb' }),
    ).rejects.toThrow(new FaxVendorError('Fax vendor refused the fax: Invalid phone number', 400));
    const empty = new SinchFax({ baseUrl: 'https://fax.api.sinch.com', projectId: 'p', key: 'k:s', exchange: async () => ({ status: 200, body: '{}' }) });
    await expect(
      empty.send({ to: '+15415557788', from: '+15415550190', pdf: new Uint8Array(), fileName: 'a.pdf', callbackUrl: 'https://api.example/cb' }),
    ).rejects.toThrow('without a fax id');
  });

  it('is set up only with the API URL, project and callback URL', () => {
    expect(faxSettingsFromEnv({})).toBeNull();
    expect(
      faxSettingsFromEnv({
        FAX_API_URL: 'https://fax.api.sinch.com',
        FAX_PROJECT_ID: 'p',
        FAX_CALLBACK_URL: 'https://a/cb',
        FAX_NUMBERS: '+15415550190, +15415550191',
      }),
    ).toEqual({
      baseUrl: 'https://fax.api.sinch.com',
      projectId: 'p',
      callbackUrl: 'https://a/cb',
      numbers: ['+15415550190', '+15415550191'],
    });
  });
});
