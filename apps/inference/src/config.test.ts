import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopback, loadConfig } from './config.js';

const KEY = 'a-random-secret-of-32-characters';

describe('loadConfig', () => {
  it('listens on loopback port 8001 without a key by default', () => {
    expect(loadConfig({})).toMatchObject({ host: '127.0.0.1', port: 8001, apiKey: undefined, threads: undefined });
    expect(loadConfig({ OWNVOICE_INFERENCE_PORT: '0' }).port).toBe(0);
  });

  it('refuses to listen beyond loopback without a bearer key, saying what to set', () => {
    for (const host of ['0.0.0.0', '::', '10.1.2.3', 'inference.internal']) {
      expect(() => loadConfig({ OWNVOICE_INFERENCE_HOST: host })).toThrow(/OWNVOICE_INFERENCE_KEY is required/);
    }
    expect(loadConfig({ OWNVOICE_INFERENCE_HOST: '0.0.0.0', OWNVOICE_INFERENCE_KEY: KEY }).apiKey).toBe(KEY);
  });

  it('listens on a Unix socket when given one (an absolute path), with no key needed', () => {
    const config = loadConfig({
      OWNVOICE_INFERENCE_SOCKET: '/run/ownvoice/inference.sock',
      OWNVOICE_INFERENCE_HOST: '::',
    });
    expect(config).toMatchObject({ socket: '/run/ownvoice/inference.sock', apiKey: undefined });
    expect(() => loadConfig({ OWNVOICE_INFERENCE_SOCKET: 'run/inference.sock' })).toThrow(/absolute path/);
  });

  it('reports every bad variable at once, never echoing the key', () => {
    let error: unknown;
    try {
      loadConfig({ OWNVOICE_INFERENCE_PORT: '70000', OWNVOICE_THREADS: 'many', OWNVOICE_INFERENCE_KEY: 'short' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).not.toContain('short');
  });

  it('tells loopback addresses from the rest', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) {
      expect(isLoopback(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.org']) expect(isLoopback(host), host).toBe(false);
  });
});
