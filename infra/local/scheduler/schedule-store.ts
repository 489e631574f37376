import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface StoredSchedule {
  name: string;
  groupName: string;
  arn: string;
  scheduleExpression: string;
  scheduleExpressionTimezone: string;
  /** When the schedule falls due, ISO UTC. */
  dueAt: string;
  state: 'ENABLED' | 'DISABLED';
  actionAfterCompletion: 'NONE' | 'DELETE';
  flexibleTimeWindow: { Mode: string; MaximumWindowInMinutes?: number };
  target: {
    Arn: string;
    RoleArn: string;
    Input?: string;
    RetryPolicy?: { MaximumRetryAttempts?: number; MaximumEventAgeInSeconds?: number };
    DeadLetterConfig?: { Arn?: string };
  };
  description?: string;
  creationDate: string;
  lastModificationDate: string;
  /** A rate() schedule's period; absent for a one-time at() schedule. Local bookkeeping. */
  periodMs?: number;
  /** Delivery bookkeeping, local only. */
  attempts: number;
  lastRunAt?: string;
  nextAttemptAt?: string;
  completedAt?: string;
  lastError?: string;
}

export interface DeadLetter {
  schedule: StoredSchedule;
  failedAt: string;
  error: string;
}

interface StoreFile {
  schedules: Record<string, StoredSchedule>;
  deadLetters: DeadLetter[];
}

export const scheduleKey = (groupName: string, name: string) => `${groupName}/${name}`;

/**
 * Schedules persisted as one JSON file, replaced atomically (write a temp file, then rename), so a
 * crash mid-write leaves either the old or the new state and never a torn file.
 */
export class ScheduleStore {
  private data: StoreFile = { schedules: {}, deadLetters: [] };
  private writing: Promise<void> = Promise.resolve();
  private readonly file: string;

  constructor(private readonly dir: string) {
    this.file = join(dir, 'schedules.json');
  }

  async load(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    try {
      this.data = JSON.parse(await readFile(this.file, 'utf8')) as StoreFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  get(key: string): StoredSchedule | undefined {
    return this.data.schedules[key];
  }

  all(): StoredSchedule[] {
    return Object.values(this.data.schedules);
  }

  deadLetters(): DeadLetter[] {
    return [...this.data.deadLetters];
  }

  async put(schedule: StoredSchedule): Promise<void> {
    this.data.schedules[scheduleKey(schedule.groupName, schedule.name)] = schedule;
    await this.flush();
  }

  async remove(key: string): Promise<void> {
    delete this.data.schedules[key];
    await this.flush();
  }

  async deadLetter(key: string, error: string, next?: StoredSchedule): Promise<void> {
    const schedule = this.data.schedules[key];
    if (!schedule) return;
    // A recurring schedule loses this occurrence only: it stays, due again at `next`.
    if (next) this.data.schedules[key] = next;
    else delete this.data.schedules[key];
    this.data.deadLetters.push({ schedule, failedAt: new Date().toISOString(), error });
    await this.flush();
  }

  /** Writes are serialised; each one writes the state as of its turn. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const temp = `${this.file}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(this.data, null, 2));
      await rename(temp, this.file);
    });
    return this.writing;
  }
}
