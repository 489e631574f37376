/**
 * A read started before the caller knows it will use it, so that it shares a round trip with the
 * read it would otherwise wait behind. Its failure still reaches whoever awaits it; when nobody does
 * (the request was refused first), it is not an unhandled rejection that would end the process.
 */
export function readAhead<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  return read;
}
