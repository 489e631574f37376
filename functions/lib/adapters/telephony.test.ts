import { describe, expect, it } from 'vitest';
import { TelephonyVendorError, TwilioVoice, twilioSignature, verifyTwilioSignature, type TelephonyExchange } from './telephony.js';

describe('Twilio request signature', () => {
  // The example of Twilio's webhook security guide.
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = new URLSearchParams({ CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' });

  it("matches Twilio's documented example", () => {
    expect(twilioSignature('12345', url, params)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
  });

  it('refuses another token, another URL, a changed parameter and a missing header', () => {
    const good = twilioSignature('12345', url, params);
    expect(verifyTwilioSignature('12345', url, params, good)).toBe(true);
    expect(verifyTwilioSignature('54321', url, params, good)).toBe(false);
    expect(verifyTwilioSignature('12345', 'https://mycompany.com/other', params, good)).toBe(false);
    expect(verifyTwilioSignature('12345', url, new URLSearchParams({ ...Object.fromEntries(params), Digits: '9' }), good)).toBe(false);
    expect(verifyTwilioSignature('12345', url, params, undefined)).toBe(false);
    expect(verifyTwilioSignature(null, url, params, good)).toBe(false);
  });
});

describe('TwilioVoice', () => {
  it("creates a Call that rings the user's phone and bridges to the recipient, with Basic auth and status callbacks", async () => {
    let seen: { url: string; headers: Record<string, string>; body?: string } | undefined;
    const exchange: TelephonyExchange = async (url, init) => {
      seen = { url, headers: init.headers, body: init.body };
      return { status: 201, body: new TextEncoder().encode(JSON.stringify({ sid: 'CA' + 'a'.repeat(32), status: 'queued' })), contentType: 'application/json' };
    };
    const voice = new TwilioVoice({ baseUrl: 'https://api.twilio.com', accountSid: 'ACabc', authToken: 'tok', exchange });
    const placed = await voice.place({
      dialFrom: '+15415553131',
      to: '+15035550101',
      from: '+15415550180',
      statusCallbackUrl: 'https://api.example/v1/partner-deliveries/twilio-voice/calls',
    });
    expect(placed).toEqual({ callSid: 'CA' + 'a'.repeat(32), status: 'queued' });
    expect(seen!.url).toBe('https://api.twilio.com/2010-04-01/Accounts/ACabc/Calls.json');
    expect(seen!.headers.authorization).toBe(`Basic ${Buffer.from('ACabc:tok').toString('base64')}`);
    const form = new URLSearchParams(seen!.body);
    expect(form.get('To')).toBe('+15415553131');
    expect(form.get('From')).toBe('+15415550180');
    expect(form.get('Twiml')).toBe('<Response><Dial callerId="+15415550180"><Number>+15035550101</Number></Dial></Response>');
    expect(form.getAll('StatusCallbackEvent')).toEqual(['initiated', 'ringing', 'answered', 'completed']);
  });

  it("turns the vendor's refusal into its message", async () => {
    const exchange: TelephonyExchange = async () => ({
      status: 400,
      body: new TextEncoder().encode(JSON.stringify({ code: 21217, message: 'Phone number is not a valid phone number' })),
      contentType: 'application/json',
    });
    const voice = new TwilioVoice({ baseUrl: 'https://api.twilio.com', accountSid: 'ACabc', authToken: 'tok', exchange });
    await expect(voice.place({ dialFrom: '+1', to: '+1', from: '+1', statusCallbackUrl: 'x' })).rejects.toThrow(
      new TelephonyVendorError('The phone service refused the call: Phone number is not a valid phone number', 400),
    );
  });

  it("fetches a recording's WAV from the vendor's origin only", async () => {
    const urls: string[] = [];
    const exchange: TelephonyExchange = async (url) => {
      urls.push(url);
      return { status: 200, body: new Uint8Array([82, 73, 70, 70]), contentType: 'audio/x-wav' };
    };
    const voice = new TwilioVoice({ baseUrl: 'https://api.twilio.com', accountSid: 'ACabc', authToken: 'tok', exchange });
    expect((await voice.recording('https://api.twilio.com/2010-04-01/Accounts/ACabc/Recordings/RE1')).contentType).toBe('audio/x-wav');
    expect(urls).toEqual(['https://api.twilio.com/2010-04-01/Accounts/ACabc/Recordings/RE1.wav']);
    await expect(voice.recording('https://attacker.example/RE1')).rejects.toThrow(TelephonyVendorError);
  });
});
