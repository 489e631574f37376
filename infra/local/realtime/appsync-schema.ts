import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, GraphQLError, GraphQLScalarType, Kind, type GraphQLSchema, type ValueNode } from 'graphql';

export const SCHEMA_PATH = fileURLToPath(new URL('../../graphql/schema.graphql', import.meta.url));

/**
 * AppSync predeclares its scalars and directives; a plain GraphQL engine must be told about them
 * so that the very file the stack deploys also validates documents locally.
 */
const APPSYNC_PRELUDE = `
scalar AWSDate
scalar AWSTime
scalar AWSDateTime
scalar AWSTimestamp
scalar AWSEmail
scalar AWSJSON
scalar AWSURL
scalar AWSPhone
scalar AWSIPAddress
directive @aws_subscribe(mutations: [String!]!) on FIELD_DEFINITION
directive @aws_iam on OBJECT | FIELD_DEFINITION
directive @aws_cognito_user_pools(cognito_groups: [String!]) on OBJECT | FIELD_DEFINITION
directive @aws_api_key on OBJECT | FIELD_DEFINITION
directive @aws_oidc on OBJECT | FIELD_DEFINITION
directive @aws_lambda on OBJECT | FIELD_DEFINITION
directive @aws_auth(cognito_groups: [String!]) on FIELD_DEFINITION
`;

// AppSync's AWSDateTime: extended ISO 8601 with a mandatory zone designator.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:\d{2}(:\d{2})?)?)$/;

function parseDateTime(value: unknown): string {
  if (typeof value !== 'string' || !DATE_TIME.test(value) || Number.isNaN(Date.parse(value))) {
    throw new GraphQLError(`Can't serialize value: Unable to serialize \`${String(value)}\` as a valid DateTime Object.`);
  }
  return value;
}

// AWSJSON travels as a JSON string in both directions; resolvers see the parsed value.
function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') throw new GraphQLError('Variable has an invalid value: AWSJSON must be a JSON string.');
  try {
    return JSON.parse(value);
  } catch {
    throw new GraphQLError('Variable has an invalid value: Unable to parse the JSON.');
  }
}

function literalString(ast: ValueNode): unknown {
  return ast.kind === Kind.STRING ? ast.value : undefined;
}

function implementScalars(schema: GraphQLSchema): void {
  const json = schema.getType('AWSJSON') as GraphQLScalarType;
  json.parseValue = parseJson;
  json.parseLiteral = (ast) => parseJson(literalString(ast));
  json.serialize = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

  const dateTime = schema.getType('AWSDateTime') as GraphQLScalarType;
  dateTime.parseValue = parseDateTime;
  dateTime.parseLiteral = (ast) => parseDateTime(literalString(ast));
  dateTime.serialize = parseDateTime;
}

export function loadAppSyncSchema(path = SCHEMA_PATH): GraphQLSchema {
  const schema = buildSchema(APPSYNC_PRELUDE + readFileSync(path, 'utf8'));
  implementScalars(schema);
  return schema;
}

/** mutation field → the subscription fields that fire on it, read from @aws_subscribe. */
export function subscriptionTriggers(schema: GraphQLSchema): Map<string, string[]> {
  const triggers = new Map<string, string[]>();
  const subscription = schema.getSubscriptionType();
  if (!subscription) return triggers;
  for (const field of Object.values(subscription.getFields())) {
    const directive = field.astNode?.directives?.find((d) => d.name.value === 'aws_subscribe');
    const arg = directive?.arguments?.find((a) => a.name.value === 'mutations');
    if (!arg || arg.value.kind !== Kind.LIST) continue;
    for (const item of arg.value.values) {
      if (item.kind !== Kind.STRING) continue;
      triggers.set(item.value, [...(triggers.get(item.value) ?? []), field.name]);
    }
  }
  return triggers;
}
