// PGlite as drizzle-orm's driver uses it, made cheaper per query and fair under load (decision 18). The
// embedded database does its work on the service's own thread, so each query's overhead is the
// service's: a signed-in read spent most of its time here.
// - Statements are parsed and planned once: a query outside a transaction runs as a named
//   statement kept per SQL text (as node-postgres does for drizzle's prepared queries on
//   PostgreSQL), bound and executed in one call into the database instead of PGlite's six. A
//   small join went from about 400 to 100 microseconds.
// - drizzle passes the same type parsers with every query (timestamps, dates and intervals kept
//   as text, which drizzle maps itself). Given parsers, PGlite merges them into a copy of its
//   whole parser table (300+ types) for each query, which doubled the cost of a small query. The
//   client keeps those types as text once instead, and the queries go without the option.
// - PGlite runs a query synchronously inside the promise that asks for it, so a backlog of
//   queries ran back to back in one microtask drain, during which the event loop neither accepted
//   nor read a connection (under load, new connections waited seconds). A query outside a
//   transaction first lets the event loop take its turn.
import { PGlite, parse, protocol, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

const keepText = (value: string) => value;
const PROBE = 'ownvoice:probe';
/** Named statements kept at most; the least recently used one is closed past this. */
export const MAX_STATEMENTS = 200;

interface Statement {
  name: string;
  /** The parameters' type ids, as the database inferred them when parsing. */
  paramTypes: number[];
}

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

export class PGliteForDrizzle extends PGlite {
  /** Type ids this client reads as text for every query, as drizzle asked. */
  private readonly asText = new Set<string>();
  /** Named statements by SQL text, least recently used first. */
  private readonly statements = new Map<string, Statement>();
  private statementCount = 0;

  override async query<T>(query: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    await new Promise((resolve) => setImmediate(resolve));
    const lean = this.lean(options);
    // Files in and out of COPY, and parameter types fixed by the caller: PGlite's own path.
    if (lean?.blob || lean?.paramTypes) return super.query<T>(query, params, lean);
    await this._checkReady();
    // As PGlite's query: never inside another caller's transaction, one query at a time.
    return this._runExclusiveTransaction(() => this._runExclusiveQuery(() => this.runNamed<T>(query, params, lean)));
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return super.transaction((tx) =>
      callback({
        query: (query, params, options) => tx.query(query, params, this.lean(options)),
        sql: (strings, ...params) => tx.sql(strings, ...params),
        exec: (query, options) => tx.exec(query, options),
        rollback: () => tx.rollback(),
        listen: (channel, onNotify) => tx.listen(channel, onNotify),
        get closed() {
          return tx.closed;
        },
      }),
    );
  }

  /** Binds and executes the statement for `query` (parsing it first if need be) in one call. */
  private async runNamed<T>(query: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const { serialize } = protocol;
    let statement: Statement | undefined;
    try {
      statement = await this.statementFor(query);
      const types = statement.paramTypes;
      // Values as PGlite's own query serialises them, by the type the database gave each.
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const serializer = options?.serializers?.[types[i] as number] ?? this.serializers[types[i] as number];
        return serializer ? serializer(param) : String(param);
      });
      const messages = await this.execProtocolStream(
        concat([
          serialize.bind({ statement: statement.name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      // As PGlite's own query: files are flushed outside transactions (a socket client's may be open).
      if (!this.isInTransaction()) await this.syncToFs();
      return parse.parseResults(messages, this.parsers, options)[0] as Results<T>;
    } catch (error) {
      // A statement that failed is parsed afresh next time (a table may have changed under it).
      if (statement) await this.closeStatement(query, statement);
      // As PGlite's errors carry them.
      throw Object.assign(error as Error, { query, params, queryOptions: options });
    }
  }

  private async statementFor(query: string): Promise<Statement> {
    const kept = this.statements.get(query);
    if (kept) {
      this.statements.delete(query);
      this.statements.set(query, kept);
      return kept;
    }
    const oldest = this.statements.keys().next();
    if (this.statements.size >= MAX_STATEMENTS && !oldest.done) {
      await this.closeStatement(oldest.value, this.statements.get(oldest.value) as Statement);
    }
    const { serialize } = protocol;
    const name = `ownvoice_${++this.statementCount}`;
    const messages = await this.execProtocolStream(
      concat([serialize.parse({ name, text: query }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.statements.set(query, statement);
    return statement;
  }

  private async closeStatement(query: string, statement: Statement): Promise<void> {
    this.statements.delete(query);
    const { serialize } = protocol;
    await this.execProtocolStream(concat([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]), {
      syncToFs: false,
      throwOnError: false,
    });
  }

  /**
   * The options without their parsers when each of them keeps the text as it is (checked on a
   * probe, so any other parser still goes to PGlite with the query); those types are then read
   * as text by the client itself.
   */
  private lean(options: QueryOptions | undefined): QueryOptions | undefined {
    const parsers = options?.parsers;
    if (!parsers) return options;
    for (const [type, parser] of Object.entries(parsers)) {
      if (parser(PROBE, Number(type)) !== PROBE) return options;
    }
    for (const type of Object.keys(parsers)) {
      if (this.asText.has(type)) continue;
      this.parsers[type] = keepText;
      this.asText.add(type);
    }
    const { parsers: _, ...rest } = options;
    return rest;
  }
}
