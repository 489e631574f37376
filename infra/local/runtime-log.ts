/** The runtime's own console lines; TIDEWELL_LOG=silent keeps tests quiet (errors still print). */
export function runtimeLog(message: string, fields?: Record<string, unknown>): void {
  if (process.env.TIDEWELL_LOG === 'silent') return;
  console.log(fields ? `${message} ${JSON.stringify(fields)}` : message);
}

export function runtimeError(message: string, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(`${message}: ${detail}`);
}
