// The composition root of the domain: repositories over one database, services over them.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { SessionsRepository } from '../repositories/sessions.repository.js';
import { UsageRepository } from '../repositories/usage.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { VoicesRepository } from '../repositories/voices.repository.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';
import { AuthService } from './auth.service.js';
import { SessionsService } from './sessions.service.js';
import { StatsService } from './stats.service.js';
import { UsageService } from './usage.service.js';
import { UsersService } from './users.service.js';
import { VoicesService } from './voices.service.js';

export interface Services {
  auth: AuthService;
  sessions: SessionsService;
  users: UsersService;
  stats: StatsService;
  voices: VoicesService;
  usage: UsageService;
}

export function createServices(
  db: Database,
  clock: Clock,
  config: Pick<Config, 'betaCap' | 'starterAllowance'>,
  storage: ArtifactStorage,
): Services {
  const usersRepo = new UsersRepository(db);
  const voicesRepo = new VoicesRepository(db);
  const sessions = new SessionsService(new SessionsRepository(db), clock);
  const usageRepo = new UsageRepository(db);
  const users = new UsersService(usersRepo, usageRepo, voicesRepo, clock);
  const usage = new UsageService(db, usageRepo, clock);
  return {
    auth: new AuthService(db, usersRepo, users, sessions, clock, config.betaCap, usage, config.starterAllowance),
    sessions,
    users,
    stats: new StatsService(usersRepo, config.betaCap),
    voices: new VoicesService(voicesRepo, storage, clock),
    usage,
  };
}
