// Shapes of the admin calls: the overview counts and the user list.
import { z } from 'zod';
import { userSchema } from './api.js';
import { ROLES } from './constants.js';
import { cleanString } from './validation/text.js';

/** Users who logged in within this many days count as active in the overview. */
export const ADMIN_ACTIVE_DAYS = 30;
/** The user list's page size: the console shows ten users a page. */
export const ADMIN_PAGE_SIZE = 10;

export const adminOverviewSchema = z.object({
  users: z.object({
    total: z.number(),
    admins: z.number(),
    regular: z.number(),
    active: z.number(),
    mfaEnabled: z.number(),
  }),
  credits: z.object({ total: z.number() }),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

export const adminUsersQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(ADMIN_PAGE_SIZE),
  /** Part of a username or e-mail, any case. */
  search: cleanString().pipe(z.string().max(100)).optional(),
  role: z.enum(ROLES).optional(),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

export const adminUsersResponseSchema = z.object({
  data: z.object({
    users: z.array(userSchema),
    pagination: z.object({ page: z.number(), pages: z.number(), total: z.number(), limit: z.number() }),
  }),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;
