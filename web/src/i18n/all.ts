// Imports every eagerly loaded room's dictionary so that t() knows their
// keys. A room adds its file here (one import line per room), except the
// What if? room, a lazy chunk that registers its English strings itself
// (web/src/whatif/room.ts) so they stay out of the first load, the math
// panel's formatting, a chunk loaded after the first step that registers
// its strings itself (web/src/math.ts), and the embedded player, whose own
// bundle registers them (web/src/embed/mount.ts).
import './player';
import './present';
import './share';
import './input';
