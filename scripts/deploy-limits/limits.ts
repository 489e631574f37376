/**
 * The AWS limits a synthesized template can break that only show at deploy time, some of them
 * after CloudFormation has created half the stack. Every figure is measured on the template as
 * CloudFormation will see it; where a value is only known at deploy time (a Ref, a GetAtt, an
 * account id), it is counted at a generous length, so a figure here is never below the real one.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface Resource {
  Type: string;
  Properties?: Record<string, Json>;
}

export interface Template {
  Resources?: Record<string, Resource>;
  Outputs?: Record<string, Json>;
  Parameters?: Record<string, Json>;
}

export const LIMITS = {
  /** CloudFormation: resources per stack (hard). */
  stackResources: 500,
  /** Tidewell's own budget (scripts/budgets): room for growth under the hard limit. */
  stackResourceBudget: 250,
  /** CloudFormation: outputs per stack. */
  stackOutputs: 200,
  /** CloudFormation: parameters per stack. */
  stackParameters: 200,
  /** CloudFormation: a template uploaded to S3 (what `cdk deploy` does past the direct size). */
  templateBytes: 1_048_576,
  /** CloudFormation: a template passed in the request body; `cdk deploy` uploads larger ones. */
  directTemplateBytes: 51_200,
  /** IAM: inline policies of one role together, whitespace not counted. */
  rolePolicyChars: 10_240,
  /** IAM: one managed policy, whitespace not counted. */
  managedPolicyChars: 6_144,
  /** Lambda: all environment variables of a function together. */
  lambdaEnvironmentBytes: 4_096,
  /** Lambda: a function name. */
  lambdaFunctionName: 64,
  /** API Gateway: routes per HTTP API (default quota). */
  httpApiRoutes: 300,
  /** Step Functions: a state machine definition. */
  stateMachineDefinitionBytes: 1_048_576,
  /** AppSync: a resolver's or function's APPSYNC_JS code (API reference: 32,768). */
  appsyncCodeChars: 32_768,
  /** AppSync: a VTL request or response mapping template (64 KB). */
  appsyncMappingTemplateBytes: 65_536,
  /** AppSync: the schema travels inline in the template, so it can use at most the template's 1 MB. */
  appsyncSchemaBytes: 1_048_576,
  /** SNS: a topic access policy. */
  snsTopicPolicyBytes: 30_720,
  /** SQS: a queue access policy. */
  sqsQueuePolicyBytes: 20_480,
  /** CloudWatch Logs: a log group name. */
  logGroupName: 512,
} as const;

/**
 * Generous lengths for values CloudFormation fills in at deploy time. Generated physical names are
 * `<stack>-<logical id>-<suffix>`, cut to the service's maximum (64 for functions and roles, 63
 * for buckets); ARNs add `arn:aws-us-gov:<service>:<region>:<account>:` and a resource path.
 */
const PSEUDO: Record<string, string> = {
  'AWS::AccountId': '0'.repeat(12),
  'AWS::Region': 'x'.repeat(16),
  'AWS::Partition': 'aws-us-gov',
  'AWS::URLSuffix': 'amazonaws.com.cn',
  'AWS::StackName': 'x'.repeat(128),
  'AWS::StackId': 'x'.repeat(140),
  'AWS::NoValue': '',
};
export const GENEROUS = { ref: 128, arn: 256, attribute: 256, unknown: 256 } as const;

/** A string at least as long as the one CloudFormation will produce for this value. */
export function resolveGenerously(value: Json): Json {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(resolveGenerously);
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const [fn] = keys;
    const arg = value[fn];
    switch (fn) {
      case 'Ref':
        return PSEUDO[arg as string] ?? 'x'.repeat(GENEROUS.ref);
      case 'Fn::GetAtt': {
        const attribute = Array.isArray(arg) ? String(arg[1]) : String(arg).split('.').slice(1).join('.');
        return 'x'.repeat(/Arn$/.test(attribute) ? GENEROUS.arn : GENEROUS.attribute);
      }
      case 'Fn::Join': {
        const [separator, parts] = arg as [string, Json[]];
        const resolved = resolveGenerously(parts);
        return Array.isArray(resolved) ? resolved.map(String).join(separator) : 'x'.repeat(GENEROUS.unknown);
      }
      case 'Fn::Sub': {
        const [text, vars] = (Array.isArray(arg) ? arg : [arg, {}]) as [string, Record<string, Json>];
        return text.replace(/\$\{([^}!][^}]*)\}/g, (_, name: string) => {
          if (name in vars) return String(resolveGenerously(vars[name]));
          if (name in PSEUDO) return PSEUDO[name];
          return 'x'.repeat(name.includes('.') ? (/Arn$/.test(name) ? GENEROUS.arn : GENEROUS.attribute) : GENEROUS.ref);
        });
      }
      case 'Fn::Select': {
        const [index, list] = arg as [number, Json];
        const resolved = resolveGenerously(list);
        return Array.isArray(resolved) && resolved[Number(index)] !== undefined ? resolved[Number(index)] : 'x'.repeat(GENEROUS.unknown);
      }
      case 'Fn::If': {
        // Whichever branch is longer.
        const [, a, b] = (arg as Json[]).map(resolveGenerously);
        return JSON.stringify(a ?? '').length >= JSON.stringify(b ?? '').length ? a : b;
      }
      case 'Fn::ImportValue':
      case 'Fn::GetAZs':
      case 'Fn::Split':
      case 'Fn::Base64':
      case 'Fn::FindInMap':
      case 'Fn::Cidr':
        return 'x'.repeat(GENEROUS.unknown);
    }
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveGenerously(v)]));
}

/** A string property's length once resolved; JSON documents count without their whitespace. */
function resolvedLength(value: Json): number {
  const resolved = resolveGenerously(value);
  return typeof resolved === 'string' ? Buffer.byteLength(resolved) : Buffer.byteLength(JSON.stringify(resolved));
}

/** IAM counts a policy without whitespace: the minified JSON of the resolved document. */
export function policyChars(document: Json): number {
  const resolved = resolveGenerously(typeof document === 'string' ? JSON.parse(document) : document);
  return JSON.stringify(resolved).length;
}

export interface LimitLine {
  /** What is measured, e.g. "IAM role inline policies". */
  limit: string;
  /** Which resource (logical id) or stack it is measured on. */
  subject: string;
  figure: number;
  max: number;
  unit: string;
  ok: boolean;
  note?: string;
}

function line(limit: string, subject: string, figure: number, max: number, unit: string, note?: string): LimitLine {
  return { limit, subject, figure, max, unit, ok: figure <= max, ...(note ? { note } : {}) };
}

/** The logical id a Ref or GetAtt points at, if the value is one. */
function refTarget(value: Json): string | undefined {
  if (value && typeof value === 'object') {
    if (typeof value.Ref === 'string') return value.Ref;
    const att = value['Fn::GetAtt'];
    if (Array.isArray(att)) return String(att[0]);
    if (typeof att === 'string') return att.split('.')[0];
  }
  return undefined;
}

/** Every limit, measured on one stack's template. `templateBytes` is the file's size as written. */
export function checkTemplate(stack: string, template: Template, templateBytes: number): LimitLine[] {
  const resources = template.Resources ?? {};
  const entries = Object.entries(resources);
  const ofType = (type: string) => entries.filter(([, r]) => r.Type === type);
  const lines: LimitLine[] = [];

  const count = entries.length;
  lines.push(line('Resources per stack (CloudFormation hard limit)', stack, count, LIMITS.stackResources, 'resources'));
  lines.push(line('Resources per stack (Tidewell budget)', stack, count, LIMITS.stackResourceBudget, 'resources'));
  lines.push(line('Outputs per stack', stack, Object.keys(template.Outputs ?? {}).length, LIMITS.stackOutputs, 'outputs'));
  lines.push(line('Parameters per stack', stack, Object.keys(template.Parameters ?? {}).length, LIMITS.stackParameters, 'parameters'));
  lines.push(
    line(
      'Template size (uploaded to S3 by cdk deploy)',
      stack,
      templateBytes,
      LIMITS.templateBytes,
      'bytes',
      templateBytes > LIMITS.directTemplateBytes
        ? `over the ${LIMITS.directTemplateBytes.toLocaleString('en-US')} bytes of a direct upload: deploy needs the bootstrap bucket (cdk deploy uses it)`
        : undefined,
    ),
  );

  // IAM: a role's inline policies (its own Policies and every AWS::IAM::Policy attached to it) count together.
  const rolePolicies = new Map<string, number>();
  for (const [id, role] of ofType('AWS::IAM::Role')) {
    const own = ((role.Properties?.Policies as Json[]) ?? []).reduce((sum: number, p: Json) => sum + policyChars(p.PolicyDocument), 0);
    rolePolicies.set(id, own);
  }
  for (const [id, policy] of ofType('AWS::IAM::Policy')) {
    const size = policyChars(policy.Properties?.PolicyDocument);
    const roles = ((policy.Properties?.Roles as Json[]) ?? []).map(refTarget).filter((r): r is string => !!r && r in resources);
    if (!roles.length) lines.push(line('IAM inline policy (role outside this stack)', id, size, LIMITS.rolePolicyChars, 'characters'));
    for (const role of roles) rolePolicies.set(role, (rolePolicies.get(role) ?? 0) + size);
  }
  for (const [role, size] of rolePolicies) lines.push(line('IAM role inline policies together', role, size, LIMITS.rolePolicyChars, 'characters'));
  for (const [id, policy] of ofType('AWS::IAM::ManagedPolicy')) {
    lines.push(line('IAM managed policy', id, policyChars(policy.Properties?.PolicyDocument), LIMITS.managedPolicyChars, 'characters'));
  }

  for (const [id, fn] of ofType('AWS::Lambda::Function')) {
    const variables = fn.Properties?.Environment?.Variables;
    if (variables) lines.push(line('Lambda environment variables together', id, resolvedLength(variables), LIMITS.lambdaEnvironmentBytes, 'bytes'));
    if (fn.Properties?.FunctionName !== undefined)
      lines.push(line('Lambda function name', id, resolvedLength(fn.Properties.FunctionName), LIMITS.lambdaFunctionName, 'characters'));
  }

  const routesByApi = new Map<string, number>();
  for (const [, route] of ofType('AWS::ApiGatewayV2::Route')) {
    const api = refTarget(route.Properties?.ApiId) ?? JSON.stringify(route.Properties?.ApiId);
    routesByApi.set(api, (routesByApi.get(api) ?? 0) + 1);
  }
  for (const [id, api] of ofType('AWS::ApiGatewayV2::Api')) {
    if (api.Properties?.ProtocolType === 'HTTP') routesByApi.set(id, routesByApi.get(id) ?? 0);
  }
  for (const [api, routes] of routesByApi) lines.push(line('Routes per HTTP API', api, routes, LIMITS.httpApiRoutes, 'routes'));

  for (const [id, machine] of ofType('AWS::StepFunctions::StateMachine')) {
    const p = machine.Properties ?? {};
    const definition = p.DefinitionString !== undefined ? resolvedLength(p.DefinitionString) : p.Definition !== undefined ? resolvedLength(p.Definition) : 0;
    lines.push(line('Step Functions state machine definition', id, definition, LIMITS.stateMachineDefinitionBytes, 'bytes'));
  }

  for (const [id, schema] of ofType('AWS::AppSync::GraphQLSchema')) {
    if (schema.Properties?.Definition !== undefined)
      lines.push(line('AppSync schema definition (inline)', id, resolvedLength(schema.Properties.Definition), LIMITS.appsyncSchemaBytes, 'bytes'));
  }
  for (const [id, resolver] of [...ofType('AWS::AppSync::Resolver'), ...ofType('AWS::AppSync::FunctionConfiguration')]) {
    const p = resolver.Properties ?? {};
    if (p.Code !== undefined) lines.push(line('AppSync resolver code', id, resolvedLength(p.Code), LIMITS.appsyncCodeChars, 'characters'));
    for (const template of ['RequestMappingTemplate', 'ResponseMappingTemplate'] as const) {
      if (p[template] !== undefined)
        lines.push(
          line(
            `AppSync ${template === 'RequestMappingTemplate' ? 'request' : 'response'} mapping template`,
            id,
            resolvedLength(p[template]),
            LIMITS.appsyncMappingTemplateBytes,
            'bytes',
          ),
        );
    }
  }

  for (const [id, policy] of ofType('AWS::SNS::TopicPolicy'))
    lines.push(line('SNS topic policy', id, policyChars(policy.Properties?.PolicyDocument), LIMITS.snsTopicPolicyBytes, 'bytes'));
  for (const [id, policy] of ofType('AWS::SQS::QueuePolicy'))
    lines.push(line('SQS queue policy', id, policyChars(policy.Properties?.PolicyDocument), LIMITS.sqsQueuePolicyBytes, 'bytes'));

  for (const [id, group] of ofType('AWS::Logs::LogGroup')) {
    // Without a name CloudFormation generates one well under the limit.
    if (group.Properties?.LogGroupName !== undefined)
      lines.push(line('Log group name', id, resolvedLength(group.Properties.LogGroupName), LIMITS.logGroupName, 'characters'));
  }
  return lines;
}

/** One line per limit kind for a stack: the resource closest to its limit stands for the kind. */
export function closestPerLimit(lines: readonly LimitLine[]): LimitLine[] {
  const byLimit = new Map<string, LimitLine>();
  for (const l of lines) {
    const current = byLimit.get(l.limit);
    if (!current || l.figure / l.max > current.figure / current.max) byLimit.set(l.limit, l);
  }
  return [...byLimit.values()];
}

export function formatLine(l: LimitLine): string {
  const pct = ((l.figure / l.max) * 100).toFixed(1);
  const figures = `${l.figure.toLocaleString('en-US')} / ${l.max.toLocaleString('en-US')} ${l.unit} (${pct}%)`;
  return `${l.ok ? 'ok  ' : 'OVER'}  ${l.limit}: ${figures}  ${l.subject}${l.note ? `\n        note: ${l.note}` : ''}`;
}
