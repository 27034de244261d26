// How an activity-log event reads wherever it is listed (the admin's activity page, the account's
// security events): the action's name, who acted, and when.
import { ACTIVITY_ACTIONS, type Activity } from '@ownvoice/shared';
import { formatDateTime } from './format';

/** Who acted: nobody (the payment provider, the system) reads "System". */
export function activityActorName(actor: Activity['actor']): string {
  if (actor === null) return 'System';
  // The acting account was deleted since: its name is gone with it.
  return actor.username ?? 'Deleted user';
}

export interface ActivityRow {
  id: string;
  action: string;
  details: string;
  by: string;
  date: string;
}

export const activityRow = (activity: Activity): ActivityRow => ({
  id: activity.id,
  action: ACTIVITY_ACTIONS[activity.action].label,
  details: activity.details,
  by: activityActorName(activity.actor),
  date: formatDateTime(activity.createdAt),
});
