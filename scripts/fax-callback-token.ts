/**
 * Prints the token a Sinch fax service's incoming-fax callback URL must carry
 * (`<api>/v1/partner-deliveries/sinch-fax/faxes?token=<this>`; README "Faxes"). The key is read
 * from SINCH_FAX_KEY ("<keyId>:<keySecret>", the partner secret `sinch-fax`) so it stays out of argv.
 */
import { faxCallbackToken } from '../functions/lib/adapters/fax.js';

const key = process.env.SINCH_FAX_KEY;
if (!key || !key.includes(':')) {
  console.error('Set SINCH_FAX_KEY to the sinch-fax partner secret, "<keyId>:<keySecret>".');
  process.exit(1);
}
console.log(faxCallbackToken(key));
