// Where a dispute of a payment stands, as billing keeps it and the console shows it
// (docs/decisions/0035-dispute-inquiries.md): a bank's inquiry withdraws no money, so it takes
// nothing back; a chargeback withdraws it, so what the payment granted goes.

/**
 * `inquiry`: the bank asks about the payment, no money withdrawn; `inquiry_closed`: that ended
 * without a chargeback; `open`: a chargeback, the money withdrawn while the bank decides; then
 * `won` or `lost`.
 */
export const DISPUTE_STATUSES = ['inquiry', 'inquiry_closed', 'open', 'won', 'lost'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/**
 * The cardholder has the money back now (a chargeback open or lost): what the payment granted is
 * taken back. A chargeback won returns the money, but what was taken back stays so (decision 20.1).
 */
export const disputeWithdrewMoney = (status: DisputeStatus | null): boolean => status === 'open' || status === 'lost';
