// The payload types of the controllers' math records, apart from the code
// that formats them (math.ts, a chunk the player loads after the first
// step): the player sorts records by this list on every step.

/** The payload types the math panel shows, in the order a sync emits them. */
export const MATH_TYPES: readonly string[] = [
  'FencepostMath',
  'ScalingEventMath',
  'ScaleMath',
  'NewRSMath',
  'ReconcileNewMath',
  'OldScaleDownMath',
  'ExpectationsCheck',
  'ClaimDecision',
  'ManageDecision',
  'DeletionRanking',
  'RolloutStatusDecision',
];
