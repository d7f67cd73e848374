import { z } from 'zod';
import { ANALYTICS_EVENTS } from '../domain/analytics';

/**
 * The analytics event names as a zod enum. Kept apart from shared/domain/analytics so the client's
 * first load does not pull in zod for a list of names.
 */
export const analyticsEventSchema = z.enum([
  ANALYTICS_EVENTS.projectCreated,
  ANALYTICS_EVENTS.projectSwitched,
  ANALYTICS_EVENTS.workspaceCreated,
  ANALYTICS_EVENTS.pricingPlanChanged,
  ANALYTICS_EVENTS.memberInviteCreated,
]);
