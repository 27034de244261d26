// The job queue's settings as pg-boss stores them: a training may run for hours without pg-boss
// taking it for lost and starting it a second time beside the first (it did at 15 minutes, its
// default, while the queue's expiry was given in a unit pg-boss 10 does not keep).
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { newId } from '../ids.js';
import { openTestDatabase } from '../test/test-database.js';
import { JobQueue, MAIL_QUEUE, TRAINING_EXPIRE_SECONDS, TRAINING_QUEUE } from './job-queue.js';
import { QueueConnection } from './queue-connection.js';

let database: DatabaseHandle;
let queue: JobQueue;
let client: pg.Client;
// The queue's errors while a test runs fail that test. Those after it stops are the teardown's:
// dropping the database WITH (FORCE) can reach a connection pg's pool has only begun to end.
const errors: Error[] = [];
const record = (error: Error) => errors.push(error);

beforeAll(async () => {
  database = await openTestDatabase();
  const url = await database.connectionString();
  queue = await JobQueue.start(url, record);
  client = new pg.Client({ connectionString: url });
  await client.connect();
});
afterEach(() => {
  expect(errors).toEqual([]);
});
afterAll(async () => {
  await client?.end();
  await queue?.stop();
  await database?.close();
});

describe('the training queue', () => {
  it('lets a training job run for 23 hours before pg-boss counts it lost', async () => {
    expect(TRAINING_EXPIRE_SECONDS).toBe(23 * 60 * 60);
    const stored = await client.query('select expire_seconds from pgboss.queue where name = $1', [TRAINING_QUEUE]);
    expect(stored.rows).toEqual([{ expire_seconds: TRAINING_EXPIRE_SECONDS }]);

    const pipelineId = crypto.randomUUID();
    await queue.enqueueTraining(newId(), pipelineId);
    const job = await client.query(
      'select extract(epoch from expire_in)::int as seconds from pgboss.job where id = $1',
      [pipelineId],
    );
    expect(job.rows).toEqual([{ seconds: TRAINING_EXPIRE_SECONDS }]);
  });

  it('brings a queue an earlier version made to these settings when it starts', async () => {
    // As earlier versions left it: no expiry of its own, so pg-boss's 15 minutes.
    await client.query('update pgboss.queue set expire_seconds = null where name = $1', [TRAINING_QUEUE]);
    const again = await JobQueue.start(await database.connectionString(), record);
    await again.stop();
    const stored = await client.query('select expire_seconds from pgboss.queue where name = $1', [TRAINING_QUEUE]);
    expect(stored.rows).toEqual([{ expire_seconds: TRAINING_EXPIRE_SECONDS }]);
  });
});

describe('stopping the queue', () => {
  it('lets a job finishing as it stops be marked done before the connections close', async () => {
    const again = await JobQueue.start(await database.connectionString(), record);
    const mailId = crypto.randomUUID();
    let finish: () => void = () => {};
    const taken = new Promise<void>((resolve) => {
      void again.workMail(() => {
        resolve();
        return new Promise<void>((done) => {
          finish = done;
        });
      }, 0.5);
    });
    await again.enqueueMail(mailId);
    await taken;
    const stopped = again.stop();
    finish();
    await stopped;
    const job = await client.query('select state from pgboss.job where name = $1 and id = $2', [MAIL_QUEUE, mailId]);
    expect(job.rows).toEqual([{ state: 'completed' }]);
  });

  it('waits for every query under way, those waiting for a connection too, before it closes', async () => {
    const connection = new QueueConnection(await database.connectionString(), record);
    // One more than the connection's pool holds: the last waits for a free client.
    const queries = [1, 2, 3, 4].map((n) => connection.executeSql('select $1::int as n', [n]));
    await connection.close();
    const answers = await Promise.race([
      Promise.all(queries),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000)),
    ]);
    expect(answers).toEqual([1, 2, 3, 4].map((n) => expect.objectContaining({ rows: [{ n }] })));
    // After it closes, what pg-boss's own connection answers: nothing.
    expect(await connection.executeSql('select 1')).toBeUndefined();
  });
});
