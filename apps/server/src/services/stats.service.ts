import type { PublicStats } from '@ownvoice/shared';
import type { UsersRepository } from '../repositories/users.repository.js';

export class StatsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly betaCap: number,
  ) {}

  /** The beta's seats taken, as sign-up counts them (AuthService.register), against the cap. */
  async publicStats(): Promise<PublicStats> {
    return { userCount: await this.users.countSeats(), cap: this.betaCap };
  }
}
