// The panels moved to web/src/player/panels.ts; this re-export keeps old imports working.
export * from './player/panels';
