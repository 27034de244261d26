import { describe, expect, it } from 'vitest';
import { deviceName } from './device-name.js';

describe('deviceName', () => {
  it('names the browser and system people recognise', () => {
    const cases: [string, string][] = [
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/159.0.8154.6 Safari/537.36',
        'Chrome on Windows',
      ],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', 'Firefox on Linux'],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
        'Safari on macOS',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0',
        'Edge on Windows',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1',
        'Chrome on iOS',
      ],
      ['curl/8.5.0', 'an unknown browser'],
    ];
    for (const [agent, name] of cases) expect(deviceName(agent), agent).toBe(name);
    expect(deviceName(undefined)).toBeNull();
  });
});
