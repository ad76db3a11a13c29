// Types of bench/peers/peers-compare.mjs, for the tests.
export function accountingHolds(row: { sent: number; received: number; lost: number }): boolean;
