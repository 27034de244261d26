// The service clock tests move by hand: every test starts at the same instant, and time passes
// only when a test says so (trials end, tranches expire, periods renew).
import type { Clock } from '../clock.js';

export class TestClock implements Clock {
  private t = new Date('2026-01-15T12:00:00Z').getTime();
  now = (): Date => new Date(this.t);
  advance(ms: number): void {
    this.t += ms;
  }
}
