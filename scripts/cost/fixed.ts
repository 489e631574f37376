/**
 * What the practice's templates fix before any request: its resource types and how many of each,
 * the customer managed keys, secrets, alarm metrics, the Cognito tier, the backup plan's retained
 * recovery points, point-in-time recovery, log retention, and each Lambda's memory and architecture.
 */

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
}
export interface CfnTemplate {
  Resources?: Record<string, CfnResource>;
}

export interface LambdaSize {
  memoryMb: number;
  arm: boolean;
}

export interface BackupRule {
  name: string;
  intervalDays: number;
  keepDays: number;
  coldAfterDays?: number;
}

export interface TemplateFacts {
  /** Resource type → how many, across the practice's stacks. */
  types: Map<string, number>;
  kmsKeys: number;
  secrets: number;
  alarms: number;
  /** Metrics the alarms read (CloudWatch bills a metric-math alarm per metric). */
  alarmMetrics: number;
  cognitoTier: 'LITE' | 'ESSENTIALS' | 'PLUS' | null;
  /** The backup plan's rules: a recovery point every `intervalDays`, kept `keepDays`, moved to cold storage after `coldAfterDays`. */
  backupRules: BackupRule[];
  pitr: boolean;
  /** The longest log retention, days (0 when none is set: kept forever). */
  logRetentionDays: number;
  stateMachines: number;
  tracedStateMachines: number;
  /** Lambda size by the function's role: an API group name (`notes`) or a worker (`scheduled sends`). */
  lambdas: Map<string, LambdaSize>;
}

/**
 * Recovery points a rule holds at once in warm and cold storage, for a practice `ageDays` old
 * (a young practice has not yet made the points a long retention keeps).
 */
export function recoveryPoints(rule: BackupRule, ageDays: number): { warm: number; cold: number } {
  const kept = Math.max(1, Math.ceil(Math.min(rule.keepDays, ageDays) / rule.intervalDays));
  const warm = rule.coldAfterDays === undefined ? kept : Math.min(kept, Math.ceil(rule.coldAfterDays / rule.intervalDays));
  return { warm, cold: kept - warm };
}

/** The interval in days between runs of a Backup rule's cron schedule. */
export function cronIntervalDays(expression: string): number {
  const m = /^cron\((.+)\)$/.exec(expression.trim());
  if (!m) {
    const rate = /^rate\((\d+) (day|days|hour|hours)\)$/.exec(expression.trim());
    if (!rate) throw new Error(`Cannot read the backup schedule ${expression}`);
    return rate[2].startsWith('day') ? Number(rate[1]) : Number(rate[1]) / 24;
  }
  const [, , dayOfMonth, , dayOfWeek] = m[1].split(/\s+/);
  if (dayOfWeek && dayOfWeek !== '*' && dayOfWeek !== '?') return 7 / dayOfWeek.split(',').length;
  if (dayOfMonth && dayOfMonth !== '*' && dayOfMonth !== '?') return 30 / dayOfMonth.split(',').length;
  return 1;
}

/** The role a Lambda's description names: `Tidewell notes endpoints (demo)` → `notes`, `Tidewell scheduled sends (demo)` → `scheduled sends`. */
export function lambdaRole(description: unknown): string | null {
  if (typeof description !== 'string') return null;
  const m = /^Tidewell (.+?)(?: endpoints)? \([^)]*\)$/.exec(description);
  return m ? m[1] : null;
}

export function templateFacts(templates: CfnTemplate[]): TemplateFacts {
  const facts: TemplateFacts = {
    types: new Map(),
    kmsKeys: 0,
    secrets: 0,
    alarms: 0,
    alarmMetrics: 0,
    cognitoTier: null,
    backupRules: [],
    pitr: false,
    logRetentionDays: 0,
    stateMachines: 0,
    tracedStateMachines: 0,
    lambdas: new Map(),
  };
  for (const template of templates) {
    for (const resource of Object.values(template.Resources ?? {})) {
      const p = (resource.Properties ?? {}) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      facts.types.set(resource.Type, (facts.types.get(resource.Type) ?? 0) + 1);
      switch (resource.Type) {
        case 'AWS::KMS::Key':
          facts.kmsKeys++;
          break;
        case 'AWS::SecretsManager::Secret':
          facts.secrets++;
          break;
        case 'AWS::CloudWatch::Alarm': {
          facts.alarms++;
          const metrics = Array.isArray(p.Metrics) ? (p.Metrics as { MetricStat?: unknown }[]).filter((x) => x.MetricStat).length : 1;
          facts.alarmMetrics += Math.max(1, metrics);
          break;
        }
        case 'AWS::Cognito::UserPool':
          // A pool without a tier is created on Essentials (the default since November 2024).
          facts.cognitoTier = (p.UserPoolTier as TemplateFacts['cognitoTier']) ?? 'ESSENTIALS';
          break;
        case 'AWS::Backup::BackupPlan':
          for (const rule of (p.BackupPlan?.BackupPlanRule ?? []) as {
            RuleName?: string;
            ScheduleExpression?: string;
            Lifecycle?: { DeleteAfterDays?: number; MoveToColdStorageAfterDays?: number };
          }[]) {
            facts.backupRules.push({
              name: rule.RuleName ?? 'rule',
              intervalDays: cronIntervalDays(rule.ScheduleExpression ?? 'cron(0 5 * * ? *)'),
              // A rule without an expiry keeps every recovery point: count ten years of them.
              keepDays: rule.Lifecycle?.DeleteAfterDays ?? 3_650,
              coldAfterDays: rule.Lifecycle?.MoveToColdStorageAfterDays,
            });
          }
          break;
        case 'AWS::DynamoDB::Table':
          if (p.PointInTimeRecoverySpecification?.PointInTimeRecoveryEnabled) facts.pitr = true;
          break;
        case 'AWS::Logs::LogGroup':
          facts.logRetentionDays = Math.max(facts.logRetentionDays, Number(p.RetentionInDays ?? 0));
          break;
        case 'AWS::StepFunctions::StateMachine':
          facts.stateMachines++;
          if (p.TracingConfiguration?.Enabled) facts.tracedStateMachines++;
          break;
        case 'AWS::Lambda::Function': {
          const role = lambdaRole(p.Description);
          if (role)
            facts.lambdas.set(role, { memoryMb: Number(p.MemorySize ?? 128), arm: Array.isArray(p.Architectures) && p.Architectures.includes('arm64') });
          break;
        }
      }
    }
  }
  return facts;
}
