/**
 * Structured JSON logs. Callers pass identifiers and error names only: never request bodies,
 * patient fields or tokens (PHI and secrets stay out of logs).
 */
type Fields = Record<string, unknown>;

function write(level: string, message: string, fields?: Fields) {
  if (process.env.TIDEWELL_LOG === 'silent' && level !== 'error') return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}

export const log = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};
