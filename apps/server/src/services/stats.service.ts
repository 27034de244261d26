import type { PublicStats } from '@ownvoice/shared';
import type { UsersRepository } from '../repositories/users.repository.js';

export class StatsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly betaCap: number,
  ) {}

  async publicStats(): Promise<PublicStats> {
    return { userCount: await this.users.count(), cap: this.betaCap };
  }
}
