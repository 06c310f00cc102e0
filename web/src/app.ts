// The player moved to web/src/player/; this re-export keeps old imports working.
export * from './player/player';
