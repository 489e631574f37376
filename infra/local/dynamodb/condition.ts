import { checkConditional } from 'dynalite/db/index.js';
import { checkTypes, checkValidations } from 'dynalite/validations/index.js';
import * as deleteItemValidation from 'dynalite/validations/deleteItem.js';
import * as putItemValidation from 'dynalite/validations/putItem.js';
import * as updateItemValidation from 'dynalite/validations/updateItem.js';
import { EngineError } from './dynalite-call.js';

export type WriteKind = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';

const VALIDATIONS = {
  Put: putItemValidation,
  Update: updateItemValidation,
  Delete: deleteItemValidation,
  // A condition check has the shape of a conditional delete, minus the delete.
  ConditionCheck: deleteItemValidation,
} as const;

/** The only part of the engine's store its validators read: the item size limit (400 KB). */
const ENGINE_LIMITS = { options: { maxItemSize: 400 * 1024 } };

interface EngineValidationError {
  statusCode: number;
  body: Record<string, unknown>;
}

function isEngineValidationError(e: unknown): e is EngineValidationError {
  return typeof e === 'object' && e !== null && 'statusCode' in e && 'body' in e;
}

/**
 * A parsed, validated operation, using the engine's own validator and expression parser so a
 * transaction accepts and rejects exactly what a single write would.
 */
export interface PreparedOperation {
  kind: WriteKind;
  parsed: Record<string, unknown>;
}

export function prepareOperation(kind: WriteKind, input: Record<string, unknown>): PreparedOperation {
  const { ReturnValuesOnConditionCheckFailure: _ignored, ...rest } = input;
  const validation = VALIDATIONS[kind] as unknown as { types: unknown; custom: unknown };
  try {
    const typed = checkTypes(structuredClone(rest), validation.types) as Record<string, unknown>;
    checkValidations(typed, validation.types, validation.custom, ENGINE_LIMITS);
    return { kind, parsed: typed };
  } catch (e) {
    if (isEngineValidationError(e)) throw new EngineError(e.statusCode, e.body);
    throw e;
  }
}

/** True when the operation's condition (if any) holds for the item as it is now (undefined = absent). */
export function conditionHolds(op: PreparedOperation, current: Record<string, unknown> | undefined): boolean {
  return checkConditional(op.parsed, current) == null;
}
