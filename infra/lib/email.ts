import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { fromAddressPattern } from '../../functions/lib/adapters/email-identity.js';
import type { PracticeEmail } from '../config/practice-config.js';

/**
 * The 'email' group access: ses:SendEmail on the practice's verified identity only (and its
 * configuration set), From limited to that identity, plus the environment that makes
 * functions/lib/adapters/email.ts pick SES. Without an email config the group is told sending is
 * off (EMAIL_TRANSPORT=none) and gets no SES permission.
 */
export function emailSendGrant(email: PracticeEmail | undefined): (fn: NodejsFunction) => void {
  return (fn) => {
    if (!email) {
      fn.addEnvironment('EMAIL_TRANSPORT', 'none');
      return;
    }
    const stack = Stack.of(fn);
    const resources = [stack.formatArn({ service: 'ses', resource: 'identity', resourceName: email.identity })];
    if (email.configurationSet) resources.push(stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: email.configurationSet }));
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources,
        conditions: { StringLike: { 'ses:FromAddress': fromAddressPattern(email.identity) } },
      }),
    );
    fn.addEnvironment('EMAIL_TRANSPORT', 'ses');
    fn.addEnvironment('EMAIL_IDENTITY', email.identity);
    fn.addEnvironment('EMAIL_FROM_ADDRESS', email.fromAddress);
    if (email.configurationSet) fn.addEnvironment('EMAIL_CONFIGURATION_SET', email.configurationSet);
  };
}
