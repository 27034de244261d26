import type { PublicStats } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { unconfirmedSeatsSince } from './email-address.service.js';

export class StatsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly betaCap: number,
    private readonly clock: Clock,
  ) {}

  /** The beta's seats taken, as sign-up counts them (AuthService.register), against the cap. */
  async publicStats(): Promise<PublicStats> {
    return { userCount: await this.users.countSeats(unconfirmedSeatsSince(this.clock.now())), cap: this.betaCap };
  }
}
