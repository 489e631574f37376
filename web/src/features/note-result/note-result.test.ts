import { describe, expect, it } from 'vitest';
import type { PartnerAppList } from '../../../../shared/partners/partner-schema.js';
import { coreProductFrom, noteResultContent } from './note-result.js';

const apps = (membership: PartnerAppList['membership']): PartnerAppList => ({ partnerApps: [], allowedOrigins: [], membership });

describe('note-result screen', () => {
  it('announces a submitted lab order with the spec invoice hint when the core product holds the invoice', () => {
    expect(noteResultContent('lab', null, true)).toEqual({
      heading: 'Order submitted!',
      text: 'To find the invoice, click on "View Invoice" in the patient\'s card',
    });
  });

  it('says where the order is in Tidewell when the practice has no core product', () => {
    expect(noteResultContent('lab', null, false)).toEqual({
      heading: 'Order submitted!',
      text: "The order and its payment status are in its Lab Order note in the patient's chart.",
    });
  });

  it('shows the heading at once and no hint while it is not known which is true', () => {
    expect(noteResultContent('lab', null, undefined)).toEqual({ heading: 'Order submitted!', text: null });
  });

  it('shows the generic success text otherwise, whatever the core product', () => {
    for (const core of [true, false, undefined]) {
      expect(noteResultContent('rx', 'ok', core)?.heading).toBe('Success!');
      expect(noteResultContent(null, null, core)?.text).toBe(
        'If this screen is showing after ordering a lab, it may take up to 10 minutes for the lab to show in the patient chart.',
      );
    }
  });

  it('shows nothing when the order was canceled', () => {
    expect(noteResultContent('lab', 'canceled', true)).toBeNull();
    expect(noteResultContent('lab', 'canceled', false)).toBeNull();
  });
});

describe('whether the practice has a core product', () => {
  it('is not known while the apps load', () => {
    expect(coreProductFrom('pending', undefined)).toBeUndefined();
  });

  it('is the membership origin of the practice', () => {
    expect(coreProductFrom('success', apps({ origin: 'https://core.example', local: false }))).toBe(true);
    expect(coreProductFrom('success', apps(null))).toBe(false);
    expect(coreProductFrom('success', apps(undefined))).toBe(false);
  });

  it('counts a failed look-up as none, so the hint still names a place that exists', () => {
    expect(coreProductFrom('error', undefined)).toBe(false);
  });
});
