import {
  getArgumentValues,
  getVariableValues,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

export interface SubscriptionRequest {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** The subscription field, e.g. onCreateNotification. */
  field: string;
  args: Record<string, unknown>;
  variables: Record<string, unknown>;
}

export type ParseResult = { ok: true; request: SubscriptionRequest } | { ok: false; errorType: string; message: string };

/**
 * Validates a subscription as AppSync does before it acks a `start`: the document must be valid
 * against the deployed schema, hold one subscription operation, and select one root field.
 */
export function parseSubscriptionRequest(schema: GraphQLSchema, query: unknown, rawVariables: unknown): ParseResult {
  if (typeof query !== 'string') return { ok: false, errorType: 'BadRequestException', message: 'Missing query' };
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    return { ok: false, errorType: 'BadRequestException', message: (error as Error).message };
  }
  const errors = validate(schema, document);
  if (errors.length > 0) {
    return { ok: false, errorType: 'ValidationError', message: errors.map((e) => e.message).join('; ') };
  }
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1 || operations[0].operation !== 'subscription') {
    return { ok: false, errorType: 'BadRequestException', message: 'Expected exactly one subscription operation' };
  }
  const operation = operations[0];
  const roots = operation.selectionSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value !== '__typename');
  if (roots.length !== 1 || roots.length !== operation.selectionSet.selections.length) {
    return { ok: false, errorType: 'BadRequestException', message: 'A subscription selects exactly one root field' };
  }
  const variables = rawVariables && typeof rawVariables === 'object' ? (rawVariables as Record<string, unknown>) : {};
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) {
    return { ok: false, errorType: 'ValidationError', message: coerced.errors.map((e) => e.message).join('; ') };
  }
  const fieldDef = schema.getSubscriptionType()!.getFields()[roots[0].name.value];
  const args = getArgumentValues(fieldDef, roots[0], coerced.coerced);
  return { ok: true, request: { document, operation, field: fieldDef.name, args, variables: coerced.coerced } };
}
