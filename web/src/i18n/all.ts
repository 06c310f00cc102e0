// Imports every eagerly loaded room's dictionary so that t() knows their
// keys. A room adds its file here (one import line per room), except the
// What if? room, a lazy chunk that registers its English strings itself
// (web/src/whatif/room.ts) so they stay out of the first load.
import './player';
import './present';
import './math';
import './embed';
import './share';
import './input';
