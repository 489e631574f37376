import { EngineError } from './dynalite-call.js';

export function validationException(message: string): EngineError {
  return new EngineError(400, { __type: 'com.amazon.coral.validate#ValidationException', message });
}

export interface CancellationReason {
  Code: string;
  Message?: string;
  Item?: Record<string, unknown>;
}

/** DynamoDB's shape: one reason per request item, in order; 'None' for the items that were fine. */
export function transactionCanceled(reasons: CancellationReason[]): EngineError {
  const codes = reasons.map((r) => r.Code).join(', ');
  return new EngineError(400, {
    __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes}]`,
    CancellationReasons: reasons,
  });
}

export function idempotentParameterMismatch(): EngineError {
  return new EngineError(400, {
    __type: 'com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException',
    message: 'The request uses the same client token as a previous, but non-identical request.',
  });
}
