// The composition root of the domain: repositories over one database, services over them.

import { presetNameFor, REWRITE_MAX_ATTEMPTS } from '@ownvoice/engine';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { uploadsTempDir } from '../data-folder.js';
import type { AccountLock } from '../db/account-lock.js';
import type { Database } from '../db/client.js';
import type { BaseModelService } from '../engine/base-model.service.js';
import { baseModelInfo } from '../engine/engine-host.js';
import type { InferenceHost } from '../inference/inference-host.js';
import type { JobQueueHost } from '../jobs/job-queue.js';
import { outboxTransport, smtpTransport } from '../mail/transport.js';
import { createPaymentProvider } from '../payments/create-provider.js';
import { OfflineProvider } from '../payments/offline-provider.js';
import { ActivitiesRepository } from '../repositories/activities.repository.js';
import { AdminStatsRepository } from '../repositories/admin-stats.repository.js';
import { ApiKeysRepository } from '../repositories/api-keys.repository.js';
import { AuthFailuresRepository } from '../repositories/auth-failures.repository.js';
import { BillingActionsRepository } from '../repositories/billing-actions.repository.js';
import { BillingEventsRepository } from '../repositories/billing-events.repository.js';
import { BillingRecordsRepository } from '../repositories/billing-records.repository.js';
import { EmailLinksRepository } from '../repositories/email-links.repository.js';
import { InteractiveSessionsRepository } from '../repositories/interactive-sessions.repository.js';
import { InvitationsRepository } from '../repositories/invitations.repository.js';
import { KnownDevicesRepository } from '../repositories/known-devices.repository.js';
import { LedgerRepository } from '../repositories/ledger.repository.js';
import { MailRepository } from '../repositories/mail.repository.js';
import { MailedLinksRepository } from '../repositories/mailed-links.repository.js';
import { MfaRepository } from '../repositories/mfa.repository.js';
import { PasswordResetsRepository } from '../repositories/password-resets.repository.js';
import { PaymentsRepository } from '../repositories/payments.repository.js';
import { SessionsRepository } from '../repositories/sessions.repository.js';
import { TrainingEventsRepository } from '../repositories/training-events.repository.js';
import { UsageRepository } from '../repositories/usage.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { VoicesRepository } from '../repositories/voices.repository.js';
import { WebhooksRepository } from '../repositories/webhooks.repository.js';
import type { SecretBox } from '../security/secret-box.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';
import { AccountService } from './account.service.js';
import { type ActivationOptions, ActivationService } from './activation.service.js';
import { ActivityService } from './activity.service.js';
import { AddressLinkLimit } from './address-link-limit.js';
import { AdminService } from './admin.service.js';
import { AdminActionsService } from './admin-actions.service.js';
import { AdminMailService } from './admin-mail.service.js';
import { ApiKeysService } from './api-keys.service.js';
import { AuthService } from './auth.service.js';
import { BillingService, type Payments } from './billing/billing.service.js';
import { BillingActions } from './billing/billing-actions.js';
import { BillingAdminService } from './billing/billing-admin.service.js';
import { BillingEventsService } from './billing/billing-events.service.js';
import { Reconciliation } from './billing/reconciliation.js';
import { ContentService } from './content.service.js';
import { ConversionService } from './conversion.service.js';
import { EmailAddressService } from './email-address.service.js';
import { InteractiveService } from './interactive.service.js';
import { InvitationsService } from './invitations.service.js';
import { LoginGuard } from './login-guard.js';
import { MailService } from './mail.service.js';
import { MfaService } from './mfa.service.js';
import { Notices } from './notices.js';
import { PasswordResetService } from './password-reset.service.js';
import { SessionsService } from './sessions.service.js';
import { StatsService } from './stats.service.js';
import { StepUpService } from './step-up.service.js';
import { TrainingControlService } from './training-control.service.js';
import { TrainingEventLog } from './training-events.js';
import { UsageService } from './usage.service.js';
import { UsersService } from './users.service.js';
import { ServerBaseModel } from './voice-base-model.js';
import { VoiceChatService } from './voice-chat.service.js';
import { VoiceCreationService } from './voice-creation.service.js';
import { VoicePackageService } from './voice-package.service.js';
import { VoicesService } from './voices.service.js';
import { WebhooksService } from './webhooks.service.js';

export interface Services {
  auth: AuthService;
  account: AccountService;
  admin: AdminService;
  adminActions: AdminActionsService;
  invitations: InvitationsService;
  activity: ActivityService;
  /** The fresh second factor of sensitive admin actions. */
  stepUp: StepUpService;
  /** Counts wrong passwords and codes by where they come from; the rate limit asks it about known browsers. */
  loginGuard: LoginGuard;
  sessions: SessionsService;
  /** Keys a person's own tools call their Voices with. */
  apiKeys: ApiKeysService;
  users: UsersService;
  stats: StatsService;
  voices: VoicesService;
  voiceCreation: VoiceCreationService;
  /** A training followed and cancelled by its owner. */
  trainingControl: TrainingControlService;
  /** A training's events, written where its progress is reported (workers/). */
  trainingEvents: TrainingEventLog;
  /** The account's webhook endpoints, and the deliveries of a training's end to them. */
  webhooks: WebhooksService;
  activation: ActivationService;
  conversion: ConversionService;
  content: ContentService;
  /** OpenAI's chat completions written in a Voice (routes/v1). */
  voiceChat: VoiceChatService;
  /** A Voice downloaded as a package, and a package imported as a Voice. */
  voicePackages: VoicePackageService;
  /** The base model this server runs, as Voices are compared with it (decision 31). */
  serverBaseModel: ServerBaseModel;
  interactive: InteractiveService;
  usage: UsageService;
  mfa: MfaService;
  billing: BillingService;
  /** Payments, refunds and reconciliation in the admin console. */
  billingAdmin: BillingAdminService;
  /** The payment provider and its event handler; null when billing is `none`. */
  payments: Payments | null;
  /** E-mail: queued here, delivered by the mail worker (platform.startMailDelivery). */
  mail: MailService;
  /** The admin console's outbox: the newest messages, and a failed one sent again. */
  adminMail: AdminMailService;
  /** "Forgot password?" links and the new password they set. */
  passwordReset: PasswordResetService;
  /** Confirmed addresses, changes of address and password, and the e-mail notices switched off. */
  emailAddress: EmailAddressService;
  /** The notices the service's own events send (a Voice trained, billing, two-factor), after they commit. */
  notices: Notices;
  /** The repositories workers use directly. */
  repositories: { voices: VoicesRepository };
}

/** The long-lived parts services drive: the inference endpoints, the job queue, the log. */
export interface ServiceRuntime {
  inference: InferenceHost;
  jobs: JobQueueHost;
  log: ActivationOptions['log'] & { info(msg: string): void };
  /** Encrypts secrets at rest. */
  box: SecretBox;
  /** The server's secret key (the offline provider signs its events with a key derived from it). */
  secretKey: Buffer;
  /** One lock per account, across servers, for billing's read-then-apply steps. */
  accountLock: AccountLock;
  /** The base model this server runs (a Voice package names it). */
  baseModel: BaseModelService;
}

export function createServices(
  db: Database,
  clock: Clock,
  config: Pick<
    Config,
    | 'betaCap'
    | 'starterAllowance'
    | 'voiceIdleMinutes'
    | 'training'
    | 'billing'
    | 'publicUrl'
    | 'mail'
    | 'webhooks'
    | 'dataDir'
  >,
  storage: ArtifactStorage,
  runtime: ServiceRuntime,
): Services {
  const mail = new MailService(
    new MailRepository(db),
    () => runtime.jobs.get(),
    config.mail.smtpUrl
      ? smtpTransport(config.mail.smtpUrl, config.mail.from)
      : outboxTransport(config.mail.outboxDir, runtime.log),
    clock,
    runtime.log,
    config.mail.siteUrl,
  );
  const usersRepo = new UsersRepository(db, clock);
  const notices = new Notices(mail, usersRepo, runtime.log);
  const voicesRepo = new VoicesRepository(db, clock);
  // A training's end is told to the owner's webhooks (created below, with step-up).
  const trainingEvents = new TrainingEventLog(new TrainingEventsRepository(db), clock, runtime.log, (voiceId, ending) =>
    webhooks.trainingEnded(voiceId, ending),
  );
  const invitationsRepo = new InvitationsRepository(db);
  const sessions = new SessionsService(new SessionsRepository(db, clock), clock);
  const activity = new ActivityService(new ActivitiesRepository(db), clock);
  const loginGuard = new LoginGuard(
    new AuthFailuresRepository(db),
    new KnownDevicesRepository(db),
    activity,
    sessions,
    clock,
  );
  const usageRepo = new UsageRepository(db);
  const users = new UsersService(usersRepo, usageRepo, clock);
  const usage = new UsageService(db, usageRepo, new LedgerRepository(db), clock);
  const serverBaseModel = new ServerBaseModel(runtime.baseModel);
  const activation = new ActivationService(
    voicesRepo,
    usage,
    storage,
    runtime.inference,
    clock,
    { idleMinutes: config.voiceIdleMinutes, sellsUsage: config.billing.provider !== 'none', log: runtime.log },
    serverBaseModel,
  );
  const mfaRepo = new MfaRepository(db, clock);
  const mfa = new MfaService(mfaRepo, runtime.box, clock, activity, sessions, loginGuard, notices);
  const stepUp = new StepUpService(mfa, loginGuard, sessions, clock);
  const webhooks = new WebhooksService({
    db,
    webhooks: new WebhooksRepository(db),
    users: usersRepo,
    voices: voicesRepo,
    stepUp,
    box: runtime.box,
    jobs: runtime.jobs,
    clock,
    options: { allowPrivate: config.webhooks.allowPrivate, log: runtime.log },
  });
  const apiKeysRepo = new ApiKeysRepository(db);
  const conversion = new ConversionService(activation, usage, runtime.inference, {
    maxAttempts: REWRITE_MAX_ATTEMPTS,
    preset: config.training.preset,
  });
  const content = new ContentService(conversion, activation, usage, runtime.inference);
  const payments = createPayments(db, clock, config.billing, runtime, usersRepo, usage, activity, notices);
  const billing = new BillingService({
    db,
    payments,
    users: usersRepo,
    billingEvents: new BillingEventsRepository(db),
    records: new BillingRecordsRepository(db),
    ledgerRepo: new LedgerRepository(db),
    activity,
    clock,
    options: {
      provider: config.billing.provider,
      publicUrl: config.billing.provider === 'none' ? undefined : config.billing.publicUrl,
      prioritySupportUrl: config.billing.provider === 'none' ? undefined : config.billing.prioritySupportUrl,
      log: runtime.log,
    },
  });
  const account = new AccountService({
    db,
    users: usersRepo,
    voices: voicesRepo,
    activation,
    mfa,
    activity,
    invitations: invitationsRepo,
    storage,
    billing,
    guard: loginGuard,
  });
  const passwordResets = new PasswordResetsRepository(db);
  const emailAddress = new EmailAddressService({
    db,
    links: new EmailLinksRepository(db),
    users: usersRepo,
    usersService: users,
    resets: passwordResets,
    stepUp,
    linkLimit: new AddressLinkLimit(new MailedLinksRepository(db), clock),
    sessions,
    mail,
    notices,
    activity,
    providerActions: payments?.actions ?? null,
    clock,
    options: { betaCap: config.betaCap },
  });
  const auth = new AuthService({
    db,
    users: usersRepo,
    usersService: users,
    sessions,
    clock,
    usage,
    mfa,
    guard: loginGuard,
    activity,
    emailAddress,
    notices,
    options: {
      betaCap: config.betaCap,
      starter: config.starterAllowance,
    },
  });
  const invitations = new InvitationsService({
    db,
    invitations: invitationsRepo,
    users: usersRepo,
    auth,
    usersService: users,
    activity,
    mail,
    clock,
    publicUrl: config.publicUrl,
    log: runtime.log,
  });
  return {
    billing,
    billingAdmin: new BillingAdminService(
      payments,
      billing,
      new PaymentsRepository(db),
      new BillingEventsRepository(db),
      usersRepo,
      activity,
      runtime.log,
    ),
    payments,
    account,
    admin: new AdminService(usersRepo, new AdminStatsRepository(db), users, activity, clock),
    adminActions: new AdminActionsService({
      db,
      users: usersRepo,
      usersService: users,
      usage,
      account,
      billing,
      activity,
      sessions,
      invitations,
      clock,
    }),
    invitations,
    activity,
    stepUp,
    loginGuard,
    auth,
    sessions,
    apiKeys: new ApiKeysService(db, apiKeysRepo, usersRepo, stepUp, loginGuard, notices, clock),
    users,
    stats: new StatsService(usersRepo, config.betaCap),
    voices: new VoicesService(db, voicesRepo, usersRepo, storage, clock, activation, users, serverBaseModel),
    voiceCreation: new VoiceCreationService({
      db,
      voices: voicesRepo,
      users: usersRepo,
      usage,
      onboarding: users,
      storage,
      jobs: runtime.jobs,
      clock,
      events: trainingEvents,
    }),
    trainingControl: new TrainingControlService(
      voicesRepo,
      usage,
      storage,
      runtime.jobs,
      clock,
      runtime.log,
      trainingEvents,
    ),
    trainingEvents,
    webhooks,
    activation,
    conversion,
    content,
    voiceChat: new VoiceChatService(voicesRepo, content, runtime.inference),
    voicePackages: new VoicePackageService(db, voicesRepo, usersRepo, users, storage, clock, {
      baseModel: () => serverBaseModel.identity(),
      preset: () => presetNameFor(runtime.baseModel.status.source === 'house', config.training.preset),
      baseHparams: () => runtime.baseModel.hparams(),
      basePath: () => baseModelInfo(runtime.baseModel).path,
      tempDir: uploadsTempDir(config.dataDir),
    }),
    serverBaseModel,
    interactive: new InteractiveService(
      db,
      new InteractiveSessionsRepository(db),
      conversion,
      activation,
      usage,
      runtime.inference,
      clock,
    ),
    usage,
    mfa,
    mail,
    passwordReset: new PasswordResetService({
      db,
      resets: passwordResets,
      users: usersRepo,
      mfa,
      mfaState: mfaRepo,
      keys: apiKeysRepo,
      sessions,
      mail,
      activity,
      clock,
    }),
    emailAddress,
    notices,
    adminMail: new AdminMailService(db, new MailRepository(db), mail, activity),
    repositories: { voices: voicesRepo },
  };
}

/** The provider, the handler of its events and what acts on them; the offline provider delivers its events there. */
function createPayments(
  db: Database,
  clock: Clock,
  config: Config['billing'],
  runtime: ServiceRuntime,
  users: UsersRepository,
  usage: UsageService,
  activity: ActivityService,
  notices: Notices,
): Payments | null {
  const provider = createPaymentProvider(config, { db, clock, secretKey: runtime.secretKey });
  if (!provider) return null;
  const payments = new PaymentsRepository(db);
  const eventsRepo = new BillingEventsRepository(db);
  const actions = new BillingActions(new BillingActionsRepository(db), provider, users, clock, runtime.log);
  const events = new BillingEventsService({
    db,
    provider,
    lock: runtime.accountLock,
    events: eventsRepo,
    payments,
    records: new BillingRecordsRepository(db),
    users,
    usage,
    activity,
    actions,
    notices,
    clock,
    log: runtime.log,
  });
  const reconciliation = new Reconciliation(provider, events, actions, eventsRepo, payments, users, clock, runtime.log);
  const offline = provider instanceof OfflineProvider ? provider : null;
  offline?.connect((payload, signature) => events.receive(Buffer.from(payload), signature));
  return { provider, events, actions, reconciliation, offline };
}
