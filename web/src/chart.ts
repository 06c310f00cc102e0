// The chart moved to web/src/player/chart.ts; this re-export keeps old imports working.
export * from './player/chart';
