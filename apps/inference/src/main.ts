// Starts the inference server (`npm run inference`): reads its settings from the environment,
// finds the base model as the API server does (OWNVOICE_BASE_MODEL; by default downloaded once
// into the data folder, the house model where that cannot be fetched), starts the Voice engine
// on it and serves vLLM's OpenAI-compatible protocol. SIGINT/SIGTERM stop it cleanly.
//
// Its standard output carries exactly one line, once it listens, for a supervising parent to read
// the address from (the port, when OWNVOICE_INFERENCE_PORT=0 let the system pick one):
//
//   inference listening on http://127.0.0.1:8001
//   inference listening on unix:/path/to/inference.sock      (OWNVOICE_INFERENCE_SOCKET)
//
// Everything else (logs, progress, errors) goes to standard error. With
// OWNVOICE_INFERENCE_SUPERVISED=1 it stops when its standard input closes (its parent is gone).
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { resolveBaseModel, VoiceEngine } from '@ownvoice/engine';
import { INFERENCE_LISTENING_PREFIX } from '@ownvoice/shared';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { prepareSocketPath } from './socket-folder.js';

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`${error.message}\nFix the variables above and start again.`);
    throw error;
  }
  const log = (message: string) => console.error(message);
  // Each fallback step, why, and what the model standing in means for rewrites and Voices.
  const warn = (message: string) => console.error(`warning: ${message}`);
  let engine: VoiceEngine;
  let modelPath: string;
  try {
    const resolved = await resolveBaseModel({ spec: config.baseModel, dataDir: config.dataDir, log, warn });
    modelPath = resolved.path;
    engine = await VoiceEngine.start({ modelPath, ...(config.threads ? { threads: config.threads } : {}) });
  } catch (error) {
    return fail(`The base model could not be started: ${(error as Error).message}`);
  }
  const app = await buildApp({
    engine,
    baseModel: { name: config.servedModelName ?? path.basename(modelPath, '.gguf'), path: modelPath },
    apiKey: config.apiKey,
    // Logs go to standard error: standard output is for the listening line alone.
    logger: { level: config.logLevel, stream: process.stderr },
  });

  let closing = false;
  const shutdown = (reason: string) => {
    if (closing) process.exit(1);
    closing = true;
    log(`${reason}: closing`);
    // The app stops taking requests; disposing the engine stops the generations still running, so
    // their streams end (with an error event) and the app can finish closing.
    const closed = app.close();
    engine
      .dispose()
      .then(() => closed)
      .then(
        () => process.exit(0),
        (error: unknown) => fail(`error while closing: ${(error as Error).message}`),
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT received'));
  process.on('SIGTERM', () => shutdown('SIGTERM received'));
  // Run by an API server (its supervisor): standard input is a pipe from it, which closes when it
  // goes, however it went (killed included), so the model server never outlives it.
  if (process.env.OWNVOICE_INFERENCE_SUPERVISED === '1') {
    process.stdin.on('close', () => shutdown('the supervising API server went away'));
    process.stdin.resume();
  }

  if (config.socket) {
    try {
      prepareSocketPath(config.socket);
      await app.listen({ path: config.socket });
      chmodSync(config.socket, 0o600);
    } catch (error) {
      fail(`Could not listen on ${config.socket}: ${(error as Error).message}`);
    }
    process.stdout.write(`${INFERENCE_LISTENING_PREFIX}unix:${config.socket}\n`);
    return;
  }
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    fail(`Could not listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  process.stdout.write(`${INFERENCE_LISTENING_PREFIX}http://${host}:${port}\n`);
}

await main();
