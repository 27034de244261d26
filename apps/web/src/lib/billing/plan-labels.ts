// How plans and cycles are named: one list, in @ownvoice/shared, for the web and the server's activity log.
export { CYCLE_LABELS, PLAN_LABELS, planWithCycle } from '@ownvoice/shared';
