// Ids are 24 hex characters (the API's `_id`): 4 bytes of seconds then 8 random bytes, so they
// sort roughly by creation time, like the MongoDB ObjectIds the API's shapes come from.
import { randomBytes } from 'node:crypto';

export function newId(now: Date = new Date()): string {
  const time = Buffer.alloc(4);
  time.writeUInt32BE(Math.floor(now.getTime() / 1000) >>> 0);
  return time.toString('hex') + randomBytes(8).toString('hex');
}
